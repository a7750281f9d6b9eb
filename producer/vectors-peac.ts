/**
 * Vectors whose Task carries PEAC interaction receipts (PEAC A2A Receipt Profile): signed Wire 0.2
 * records (`interaction-record+jwt`, EdDSA) in `{receipt_ref, receipt_jws}` carriers under
 * `metadata["https://www.peacprotocol.org/ext/traceability/v1"]`, at the placements PEAC's helpers
 * write — TaskStatus (non-standard in A2A v1.0), a Message, an Artifact — with the issuer's key
 * pinned in the trust file's `peacIssuers`. The receipts are signed here, by the producer's own
 * Ed25519 code; nothing is taken from the verifier.
 */
import { fromPlain, type JsonObject } from "../src/json/value.js";
import { sha256Hex, utf8 } from "../src/util/bytes.js";
import { uuidFromLabel } from "./a2a.js";
import { ed25519FromSeed, seedFromLabel } from "./ed25519.js";
import { expectation } from "./expectations.js";
import { jsonObject } from "./json-text.js";
import { arrayAt, objectAt } from "./mutations.js";
import type { ExchangeOptions } from "./options.js";
import type { VectorDefinition } from "./vectors.js";

const PEAC_URI = "https://www.peacprotocol.org/ext/traceability/v1";
const ISSUER = "https://receipts.a2a-evidence.example";
const KID = "receipts-2026-10";
const issuerKey = ed25519FromSeed(seedFromLabel("peac receipt issuer"));

const b64url = (s: string): string => Buffer.from(s, "utf8").toString("base64url");

/** A compact JWS as PEAC's signWire02 writes it: header members in its order, JSON.stringify text. */
function signInteractionRecord(claims: Record<string, unknown>): string {
  const input = `${b64url(JSON.stringify({ typ: "interaction-record+jwt", alg: "EdDSA", kid: KID }))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${Buffer.from(issuerKey.sign(utf8(input))).toString("base64url")}`;
}

function carrier(jws: string): Record<string, unknown> {
  return { receipt_ref: `sha256:${sha256Hex(utf8(jws))}`, receipt_jws: jws };
}

function peacMetadata(...jws: string[]): JsonObject {
  return jsonObject({ carriers: jws.map(carrier), meta: { transport: "a2a", format: "embed", max_size: 65536 } });
}

const TASK_ID = uuidFromLabel("peac task");

const TASK_RECEIPT = signInteractionRecord({
  peac_version: "0.2",
  kind: "evidence",
  type: "org.peacprotocol/a2a-task-completed",
  iss: ISSUER,
  iat: 1790847000,
  jti: "rcpt-task-completed-0001",
  occurred_at: "2026-10-01T09:29:58Z",
  extensions: { "org.peacprotocol/a2a-handoff": { event: "task_completed", task_id: `ref:${TASK_ID}` } },
});

const PAYMENT_CLAIMS = {
  peac_version: "0.2",
  kind: "evidence",
  type: "org.peacprotocol/payment",
  iss: ISSUER,
  iat: 1790846995,
  jti: "rcpt-payment-0001",
  pillars: ["commerce"],
  extensions: {
    "org.peacprotocol/commerce": {
      payment_rail: "sepa",
      amount_minor: "1000000",
      currency: "EUR",
      event: "settlement",
    },
  },
};
const PAYMENT_RECEIPT = signInteractionRecord(PAYMENT_CLAIMS);

/** Receipts on TaskStatus (whole-task), on the agent's reply and on the artifact it produced. */
function attachReceipts(task: JsonObject): void {
  objectAt(task, "status").metadata = jsonObject({ [PEAC_URI]: peacMetadata(TASK_RECEIPT) });
  objectAt(task, "history", 1).metadata = jsonObject({ [PEAC_URI]: peacMetadata(PAYMENT_RECEIPT) });
  objectAt(task, "artifacts", 0).metadata = jsonObject({ [PEAC_URI]: peacMetadata(PAYMENT_RECEIPT) });
}

function pinIssuer(trust: JsonObject): void {
  trust.peacIssuers = fromPlain([
    { iss: ISSUER, keys: [{ kid: KID, key: issuerKey.publicKeyHex }], revokedKids: ["receipts-2025-01"] },
  ]);
}

const PEAC_BASE: ExchangeOptions = {
  envelope: "capture",
  taskId: TASK_ID,
  contextId: uuidFromLabel("peac context"),
  transcript: [
    {
      messageId: uuidFromLabel("peac message 0"),
      role: "ROLE_USER",
      parts: ["Settle invoice 2026-118: 10 000 EUR by SEPA."],
    },
    { messageId: uuidFromLabel("peac message 1"), role: "ROLE_AGENT", parts: ["Settled: SEPA reference S-7731."] },
  ],
  artifacts: [
    { artifactId: uuidFromLabel("peac artifact 0"), name: "settlement", parts: ["S-7731 settled 09:29:55Z"] },
  ],
};

export const PEAC_VECTORS: readonly VectorDefinition[] = [
  {
    name: "valid-peac-receipts",
    description:
      "A capture whose final Task also carries PEAC interaction receipts: a task-completed record in status.metadata (PEAC's placement, not an A2A v1.0 field), and one payment record on the agent's reply and on the artifact (the same receipt twice); the issuer's Ed25519 key is pinned by kid in peacIssuers.",
    mutation: null,
    options: { ...PEAC_BASE, tamper: { finalTask: attachReceipts, trust: pinIssuer } },
    expected: expectation({ peacReceipts: "PASS" }),
    note: "peacReceipts PASS says the pinned issuer key signed each receipt and it is unmodified; PEAC claims carry no Task binding, so it does not say the receipts are about this Task.",
  },
  {
    name: "neg-peacReceipts-receipt-claims",
    description:
      "valid-peac-receipts with the payment receipt's claims changed after signing (amount_minor 1000000 → 9000000) in the artifact's copy; its receipt_ref is recomputed over the altered JWS, so only the signature breaks.",
    mutation:
      'artifacts[0].metadata[PEAC].carriers[0]: payload amount_minor → "9000000", receipt_ref re-derived, signature kept',
    options: {
      ...PEAC_BASE,
      tamper: {
        trust: pinIssuer,
        finalTask: (task) => {
          attachReceipts(task);
          const [header, , signature] = PAYMENT_RECEIPT.split(".");
          const altered = {
            ...PAYMENT_CLAIMS,
            extensions: {
              "org.peacprotocol/commerce": {
                ...PAYMENT_CLAIMS.extensions["org.peacprotocol/commerce"],
                amount_minor: "9000000",
              },
            },
          };
          const forged = `${header}.${b64url(JSON.stringify(altered))}.${signature}`;
          arrayAt(objectAt(task, "artifacts", 0, "metadata", PEAC_URI), "carriers")[0] = jsonObject(carrier(forged));
        },
      },
    },
    expected: expectation({ peacReceipts: "FAIL" }),
    note: "The reply's copy of the same receipt still verifies: each carrier is checked on its own, and the failed one is not outvoted.",
  },
];
