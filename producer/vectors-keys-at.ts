/**
 * Conformance vectors for the caller's `--at` (contract §5.1), which the vector carries in its
 * `args.json`: the Transparency Service's key is revoked at 10:00Z, and its receipt states an
 * `iat` of 09:30:05Z. A service's own timestamp never places its signature before the revocation;
 * only the caller's `--at` (or another independent party) can. With `--at` before the revocation
 * the stamp counts; with `--at` after it, the stamp is not counted — INCONCLUSIVE `KEY_REVOKED`,
 * never FAIL, as for an unknown key — and the record stays a signed record.
 *
 * The two vectors are one record — one input, one trust file, on a log and a Transparency Service
 * of their own, shared by the two — judged at two times: only `args.json` differs. Verified
 * together with every other vector (contract §9.36), the revoked service key judges only this
 * record's receipt.
 */
import { toPlain, type JsonObject } from "../src/json/value.js";
import { uuidFromLabel } from "./a2a.js";
import { expectation } from "./expectations.js";
import { jsonObject } from "./json-text.js";
import type { ExchangeOptions } from "./options.js";
import { vectorLogId, vectorTransparencyUrl } from "./vector-log.js";
import type { VectorDefinition } from "./vectors.js";

/** 2026-10-01T09:30:05Z: five seconds after the record was sealed, before the revocation. */
const RECEIPT_IAT = 1790847005;
const REVOKED = { revokedAt: "2026-10-01T10:00:00Z", reason: "service signing key leaked" };
const AT_BEFORE = "2026-10-01T09:45:00Z";
const AT_AFTER = "2026-10-01T10:30:00Z";
/** The log and the service the two vectors share: one record, judged at two times. */
const SHARED = "keys-revoked-ts-at";

/** The Transparency Service's key pinned with a revocation. */
function revokedServiceKey(trust: JsonObject): void {
  const plain = toPlain(trust) as { transparencyServices: { keys: unknown[] }[] };
  const service = plain.transparencyServices[0] as { keys: unknown[] };
  service.keys[0] = { key: service.keys[0], ...REVOKED };
  Object.assign(trust, jsonObject(plain as unknown as Record<string, unknown>));
}

const OPTIONS: ExchangeOptions = {
  envelope: "capture",
  taskId: uuidFromLabel("keys-at vector task"),
  contextId: uuidFromLabel("keys-at vector context"),
  transcript: [
    { messageId: uuidFromLabel("keys-at vector message 0"), role: "ROLE_USER", parts: ["Refund order 12."] },
    { messageId: uuidFromLabel("keys-at vector message 1"), role: "ROLE_AGENT", parts: ["Order 12 refunded."] },
  ],
  artifacts: [{ artifactId: uuidFromLabel("keys-at vector artifact 0"), name: "refund", parts: ["order 12 refunded"] }],
  leavesBefore: 5,
  leavesAfter: 3,
  priorCheckpoint: { leafCount: 5 },
  logId: vectorLogId(SHARED),
  witnesses: [{ url: vectorTransparencyUrl(SHARED), treeSize: 7, leafIndex: 4, iat: RECEIPT_IAT }],
  tamper: { trust: revokedServiceKey },
};

export const KEY_AT_VECTORS: readonly VectorDefinition[] = [
  {
    name: "valid-keys-revoked-ts-at-before",
    description: `The trust file revokes the Transparency Service's key at 10:00Z; its receipt states iat 09:30:05Z, and the caller verifies with --at ${AT_BEFORE} (args.json), before the revocation: the stamp counts (key.window PASS).`,
    mutation: null,
    options: OPTIONS,
    args: ["--at", AT_BEFORE],
    expected: expectation(),
    note: "The receipt's own iat does not place it before the revocation; the caller's --at does. Without --at the same input is inconclusive-keys-revoked-ts-at-after's outcome.",
  },
  {
    name: "inconclusive-keys-revoked-ts-at-after",
    description: `valid-keys-revoked-ts-at-before (the same input and trust file) verified with --at ${AT_AFTER}, after the Transparency Service's key was revoked: nothing independent places its receipt before the revocation.`,
    mutation: `args.json --at: "${AT_BEFORE}" → "${AT_AFTER}"`,
    options: OPTIONS,
    args: ["--at", AT_AFTER],
    expected: expectation({ externalRegistration: "INCONCLUSIVE", referenceConsistency: "INCONCLUSIVE" }),
    note: "KEY_REVOKED under externalRegistration's key.window, INCONCLUSIVE and never FAIL (contract §5.1: a revoked service key's signature is not counted, like an unknown key's); the level is SIGNED_RECORD, below the negotiated EXTERNALLY_REGISTERED, so exit 3. The EXTERNALLY_REGISTERED claim cannot be confirmed (referenceConsistency INCONCLUSIVE, contract §9.10).",
  },
];
