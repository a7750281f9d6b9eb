/**
 * peacReceipts over whole Tasks: receipts issued by @peac/crypto (PEAC's own signer) at every
 * placement, verified under the pinned issuer key; every negative flips peacReceipts and nothing
 * else, and names the deciding check, its subject (the carrier's path) and its code.
 */
import { describe, expect, it } from "vitest";
import { sign as signWire01 } from "@peac/crypto";
import { generateKeypairFromSeed } from "@peac/crypto/testkit";
import { fromPlain, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { verify } from "../../src/verify.js";
import { loadEvidence } from "../../src/input/load.js";
import { loadTrustConfig } from "../../src/trust/config.js";
import { EvidenceContext } from "../../src/evidence/context.js";
import { peacReceipts } from "../../src/properties/peac-receipts.js";
import { isFailedInput, type VerifiedInput } from "../../src/report/model.js";
import { at, baseline, capture, check, checkOf, statesOf } from "./harness.js";
import { PEAC_URI, carrierOf, claims, issuerEntry, peacPayload, peacSigner, receiptRef } from "../peac/signer.js";

const A = await peacSigner("issuer A", "https://issuer.example", "k1");
const REVOKED = await peacSigner("issuer A, retired key", "https://issuer.example", "k0");
const UNKNOWN = await peacSigner("issuer B", "https://other-issuer.example", "k9");

const R1 = await A.sign(claims(A, { jti: "receipt-1" }));
const R2 = await A.sign(
  claims(A, {
    jti: "receipt-2",
    type: "org.peacprotocol/payment",
    pillars: ["commerce"],
    extensions: { "org.peacprotocol/commerce": { payment_rail: "sepa", amount_minor: "1000", currency: "EUR" } },
  }),
);
const SAME_JTI = await A.sign(claims(A, { jti: "receipt-1", iat: 1790847000 }));
const BY_REVOKED = await REVOKED.sign(claims(REVOKED, { jti: "receipt-3" }));
const BY_UNKNOWN = await UNKNOWN.sign(claims(UNKNOWN, { jti: "receipt-4" }));
/** A's iss, kid and R1's jti, signed by another key. */
const FORGED_SAME_JTI = await UNKNOWN.signRaw(
  { typ: "interaction-record+jwt", alg: "EdDSA", kid: "k1" },
  claims(A, { jti: "receipt-1", sub: "forged" }),
);
const FUTURE = await A.sign(claims(A, { jti: "receipt-5", iat: 4102444800 }));

/** The same signature over a payload changed after signing (the amount), re-encoded. */
function tamperedPayload(jws: string): string {
  const [h, p, s] = jws.split(".") as [string, string, string];
  const payload = JSON.parse(Buffer.from(p, "base64url").toString("utf8"));
  payload.extensions["org.peacprotocol/commerce"].amount_minor = "9000";
  return `${h}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${s}`;
}

/**
 * A receipt signed by A whose compact JWS is `length` bytes, or the next length base64url can
 * reach (an unpadded segment is never 1 mod 4 long); the padding is an unknown extension.
 */
async function receiptOfLength(length: number): Promise<string> {
  const sized = (pad: number) =>
    A.sign(claims(A, { jti: "receipt-sized", extensions: { "com.example/padding": { p: "x".repeat(pad) } } }));
  const base = (await sized(0)).length;
  for (let extra = 0; extra < 4; extra++) {
    for (
      let pad = Math.floor(((length + extra - base) * 3) / 4) - 2;
      pad <= Math.ceil(((length + extra - base) * 3) / 4) + 2;
      pad++
    ) {
      const jws = await sized(pad);
      if (jws.length === length + extra) return jws;
    }
  }
  throw new Error(`no receipt of ${length} bytes`);
}
const AT_LIMIT = await receiptOfLength(65_536);
const OVER_LIMIT = await receiptOfLength(65_537);

const wire01Key = await generateKeypairFromSeed(new Uint8Array(32).fill(3));
const WIRE01 = await signWire01(
  { iss: "https://issuer.example", aud: "https://verifier.example", iat: 1790846990, rid: "r-1", amt: 100, cur: "EUR" },
  wire01Key.privateKey,
  "k1",
);

const e = capture();
const TRUST = { ...(e.trust as JsonObject), peacIssuers: fromPlain([issuerEntry(A, ["k0"])]) } as JsonObject;

type Where = "status" | "statusMessage" | "history" | "artifact" | "task" | "part";
const PATHS: Record<Where, string> = {
  status: "finalTask.status.metadata",
  statusMessage: "finalTask.status.message.metadata",
  history: "finalTask.history[1].metadata",
  artifact: "finalTask.artifacts[0].metadata",
  task: "finalTask.metadata",
  part: "finalTask.history[1].parts[0].metadata",
};
const carrierPath = (where: Where, i = 0): string => `${PATHS[where]}[${JSON.stringify(PEAC_URI)}].carriers[${i}]`;

function place(task: JsonObject, where: Where, value: JsonValue): void {
  const target =
    where === "status"
      ? at(task, "status")
      : where === "statusMessage"
        ? at(task, "status", "message")
        : where === "history"
          ? at(task, "history", 1)
          : where === "artifact"
            ? at(task, "artifacts", 0)
            : where === "task"
              ? task
              : at(task, "history", 1, "parts", 0);
  const md = (target.metadata as JsonObject | undefined) ?? (fromPlain({}) as JsonObject);
  md[PEAC_URI] = value;
  target.metadata = md;
}

/** The honest capture with PEAC payloads placed in its final Task, verified with the pinned issuer. */
function run(placements: Array<[Where, unknown]>, trust: JsonValue | null = TRUST): VerifiedInput {
  const ex = capture(
    {},
    {
      finalTask: (task) => {
        for (const [where, payload] of placements)
          place(task, where === "statusMessage" ? "history" : where, fromPlain(payload));
        // The SDKs repeat the final reply, metadata and all, as status.message: one observation.
        if (placements.some(([w]) => w === "statusMessage"))
          at(task, "status").message = fromPlain(at(task, "history", 1)) as JsonObject;
      },
    },
  );
  return check(ex, { trust });
}

function carrierCheck(input: VerifiedInput, subject: string) {
  return checkOf(input, "peacReceipts", "peac.carrier", subject);
}

/** Each carrier's subject, state and code, in report order. */
function carrierOutcomes(input: VerifiedInput): unknown[][] {
  return input.properties.peacReceipts.checks
    .filter((c) => c.id === "peac.carrier")
    .map((c) => [c.subject, c.state, c.code]);
}

function expectOnly(input: VerifiedInput, state: string): void {
  expect(statesOf(input)).toEqual(baseline({ peacReceipts: state as never }));
}

describe("peacReceipts: receipts at each placement, signed by @peac/crypto", () => {
  it.each(["status", "statusMessage", "history", "artifact", "task", "part"] as Where[])(
    "%s: PASS under the pinned key; nothing else changes",
    (where) => {
      const input = run([[where, peacPayload(carrierOf(R2))]]);
      expectOnly(input, "PASS");
      const c = carrierCheck(input, carrierPath(where));
      expect([c.state, c.code, c.values?.iss, c.values?.kid, c.values?.jti, c.values?.key]).toEqual([
        "PASS",
        undefined,
        A.iss,
        "k1",
        "receipt-2",
        "peacIssuers[0].keys[0].key",
      ]);
      const expectedWarning = {
        status: "non_standard_placement",
        task: "non_profile_placement",
        part: "non_profile_placement",
      }[where as string];
      if (expectedWarning) expect(c.values?.warnings).toContain(expectedWarning);
      else expect(c.values?.warnings).toBeUndefined();
    },
  );

  it("says what a PASS proves and what it does not", () => {
    const p = run([["history", peacPayload(carrierOf(R1), carrierOf(R2))]]).properties.peacReceipts;
    expect(p.state).toBe("PASS");
    expect(p.detail).toMatch(/signed by its issuer's pinned key and unmodified/);
    expect(p.detail).toMatch(
      /does not show that they are about this Task \(PEAC receipt claims carry no Task binding\)/,
    );
  });

  it("the same receipt at several places: verified once, a PASS at each place", () => {
    const input = run([
      ["history", peacPayload(carrierOf(R2))],
      ["artifact", peacPayload(carrierOf(R2))],
      ["status", peacPayload(carrierOf(R2))],
    ]);
    expectOnly(input, "PASS");
    const checks = input.properties.peacReceipts.checks.filter((c) => c.id === "peac.carrier");
    expect(checks.map((c) => [c.subject, c.state])).toEqual([
      [carrierPath("status"), "PASS"],
      [carrierPath("history"), "PASS"],
      [carrierPath("artifact"), "PASS"],
    ]);
  });

  it("a 65,536-byte receipt fits the A2A carrier and verifies", () => {
    expect([AT_LIMIT.length, OVER_LIMIT.length > 65_536 && OVER_LIMIT.length < 65_540]).toEqual([65_536, true]);
    expectOnly(run([["artifact", peacPayload(carrierOf(AT_LIMIT))]]), "PASS");
  });
});

interface Negative {
  readonly name: string;
  readonly placements: Array<[Where, unknown]>;
  readonly state: "FAIL" | "INCONCLUSIVE";
  readonly check: string;
  readonly subject: string;
  readonly code: string;
  readonly detail?: RegExp;
}

const NEGATIVES: Negative[] = [
  {
    name: "tampered claims, receipt_ref recomputed",
    placements: [["history", peacPayload(carrierOf(tamperedPayload(R2)))]],
    state: "FAIL",
    check: "peac.carrier",
    subject: carrierPath("history"),
    code: "E_INVALID_SIGNATURE",
  },
  {
    name: "receipt_ref of another receipt",
    placements: [["history", peacPayload({ receipt_ref: receiptRef(R1), receipt_jws: R2 })]],
    state: "FAIL",
    check: "peac.carrier",
    subject: carrierPath("history"),
    code: "PEAC_RECEIPT_REF_MISMATCH",
    detail: /receipt_ref mismatch: expected sha256:/,
  },
  {
    name: "a validly signed receipt just over the 65,536-byte A2A limit",
    placements: [["artifact", peacPayload(carrierOf(OVER_LIMIT))]],
    state: "FAIL",
    check: "peac.carrier",
    subject: carrierPath("artifact"),
    code: "PEAC_CARRIER_OVERSIZE",
  },
  {
    name: "reference only, with a receipt_url that is never fetched",
    placements: [["history", peacPayload({ receipt_ref: receiptRef(R2), receipt_url: "https://issuer.example/r/2" })]],
    state: "INCONCLUSIVE",
    check: "peac.carrier",
    subject: carrierPath("history"),
    code: "PEAC_REFERENCE_ONLY",
  },
  {
    name: "an issuer the trust file does not pin",
    placements: [["history", peacPayload(carrierOf(BY_UNKNOWN))]],
    state: "INCONCLUSIVE",
    check: "peac.carrier",
    subject: carrierPath("history"),
    code: "E_KEY_NOT_FOUND",
  },
  {
    name: "a kid the trust file lists as revoked",
    placements: [["history", peacPayload(carrierOf(BY_REVOKED))]],
    state: "FAIL",
    check: "peac.carrier",
    subject: carrierPath("history"),
    code: "E_REVOKED_KEY_USED",
  },
  {
    name: "two different receipts of one issuer with one jti",
    placements: [
      ["history", peacPayload(carrierOf(R1))],
      ["artifact", peacPayload(carrierOf(SAME_JTI))],
    ],
    state: "FAIL",
    check: "peac.carrier",
    subject: carrierPath("history"),
    code: "PEAC_DUPLICATE_JTI",
  },
  {
    name: "an empty carriers array",
    placements: [["history", { carriers: [] }]],
    state: "FAIL",
    check: "peac.payload",
    subject: `${PATHS.history}[${JSON.stringify(PEAC_URI)}]`,
    code: "PEAC_PAYLOAD_MALFORMED",
  },
  {
    name: "a payload that is a string",
    placements: [["artifact", R2]],
    state: "FAIL",
    check: "peac.payload",
    subject: `${PATHS.artifact}[${JSON.stringify(PEAC_URI)}]`,
    code: "PEAC_PAYLOAD_MALFORMED",
  },
  {
    name: "an uppercase receipt_ref",
    placements: [
      [
        "history",
        peacPayload({ receipt_ref: receiptRef(R2).toUpperCase().replace("SHA256", "sha256"), receipt_jws: R2 }),
      ],
    ],
    state: "FAIL",
    check: "peac.carrier",
    subject: carrierPath("history"),
    code: "PEAC_CARRIER_INVALID",
  },
  // "=" is outside the carrier pattern; PEAC's lenient decoder would accept the padded signature.
  {
    name: "a padded signature segment",
    placements: [["history", peacPayload(carrierOf(`${R2}==`))]],
    state: "FAIL",
    check: "peac.carrier",
    subject: carrierPath("history"),
    code: "PEAC_CARRIER_INVALID",
  },
  {
    name: "a Wire 0.1 receipt",
    placements: [["history", peacPayload(carrierOf(WIRE01))]],
    state: "INCONCLUSIVE",
    check: "peac.carrier",
    subject: carrierPath("history"),
    code: "E_UNSUPPORTED_WIRE_VERSION",
  },
];

describe("peacReceipts negatives: each flips peacReceipts only, decided by its carrier", () => {
  it.each(NEGATIVES.map((n): [string, Negative] => [n.name, n]))("%s", (_name, n) => {
    const input = run(n.placements);
    expectOnly(input, n.state);
    const p = input.properties.peacReceipts;
    const deciding = p.checks.find((c) => c.state === n.state);
    expect([deciding?.id, deciding?.subject, deciding?.code]).toEqual([n.check, n.subject, n.code]);
    if (n.detail) expect(deciding?.detail).toMatch(n.detail);
    expect(input.evidenceLevel.achieved).toBe("EXTERNALLY_REGISTERED");
  });

  it("a failed carrier is not outvoted: its neighbours still PASS in their own checks", () => {
    const input = run([
      ["history", peacPayload(carrierOf(R1), carrierOf(tamperedPayload(R2)))],
      ["artifact", peacPayload(carrierOf(R2))],
    ]);
    expectOnly(input, "FAIL");
    expect(carrierOutcomes(input)).toEqual([
      [carrierPath("history", 0), "PASS", undefined],
      [carrierPath("history", 1), "FAIL", "E_INVALID_SIGNATURE"],
      [carrierPath("artifact", 0), "PASS", undefined],
    ]);
  });

  it("duplicate jti: both receipts are reported, neither is trusted", () => {
    const input = run([
      ["history", peacPayload(carrierOf(R1))],
      ["artifact", peacPayload(carrierOf(SAME_JTI))],
    ]);
    expect(input.properties.peacReceipts.checks.filter((c) => c.id === "peac.carrier").map((c) => c.code)).toEqual([
      "PEAC_DUPLICATE_JTI",
      "PEAC_DUPLICATE_JTI",
    ]);
  });

  it("an unverifiable receipt reusing a verified one's jti cannot make it fail", () => {
    const input = run([
      ["history", peacPayload(carrierOf(R1))],
      ["artifact", peacPayload(carrierOf(BY_UNKNOWN))],
      ["task", peacPayload(carrierOf(FORGED_SAME_JTI))],
    ]);
    expect(input.properties.peacReceipts.checks.filter((c) => c.id === "peac.carrier").map((c) => c.code)).toEqual([
      undefined,
      "E_KEY_NOT_FOUND",
      "E_INVALID_SIGNATURE",
    ]);
  });

  it("meta that PEAC never checks is reported as warnings and never raises the limit", () => {
    const input = run([
      ["history", { carriers: [carrierOf(R2)], meta: { transport: "mcp", format: "reference", max_size: 1_000_000 } }],
    ]);
    expectOnly(input, "PASS");
    const w = carrierCheck(input, carrierPath("history")).values?.warnings ?? "";
    expect(w).toContain("meta_transport");
    expect(w).toContain("meta_max_size");
    expect(w).toContain("format_mismatch");
  });
});

describe("peacReceipts: what is there, what was given", () => {
  it("NOT_PRESENT when the Task carries no PEAC carrier, or its value is null", () => {
    expect(run([]).properties.peacReceipts.state).toBe("NOT_PRESENT");
    const input = run([["history", null]]);
    expectOnly(input, "NOT_PRESENT");
    expect(input.properties.peacReceipts.checks.map((c) => c.id)).toEqual(["peac.carriers"]);
  });

  it("NOT_CHECKED when there is no observed Task (a bare bundle)", () => {
    const input = check(e, { input: e.bundle, request: { firstTask: e.firstTask } });
    expect([input.properties.peacReceipts.state, input.properties.peacReceipts.checks.map((c) => c.id)]).toEqual([
      "NOT_CHECKED",
      ["peac.task"],
    ]);
  });

  it("INCONCLUSIVE when the trust file pins no PEAC issuer, with or without a trust file", () => {
    const noPeac = run([["history", peacPayload(carrierOf(R2))]], e.trust as JsonObject);
    expectOnly(noPeac, "INCONCLUSIVE");
    expect(carrierCheck(noPeac, carrierPath("history")).code).toBe("E_KEY_NOT_FOUND");
    expect(run([["history", peacPayload(carrierOf(R2))]], null).properties.peacReceipts.state).toBe("INCONCLUSIVE");
  });

  it("lists the unchecked time rules without --at, and the claimed times as claims", () => {
    const input = run([["history", peacPayload(carrierOf(FUTURE))]]);
    expectOnly(input, "PASS");
    const time = checkOf(input, "peacReceipts", "peac.time");
    expect([time.state, time.detail]).toEqual([
      "NOT_CHECKED",
      expect.stringMatching(
        /^no --at time given: iat and occurred_at .* were not checked; the times the receipts state are their issuers' claims$/,
      ),
    ]);
    expect(carrierCheck(input, carrierPath("history")).values?.iat).toBe("4102444800 (2100-01-01T00:00:00Z)");
  });
});

describe("peacReceipts with a time (--at)", () => {
  const ex = capture(
    {},
    {
      finalTask: (task) => {
        place(task, "history", fromPlain(peacPayload(carrierOf(R1))));
        place(task, "artifact", fromPlain(peacPayload(carrierOf(FUTURE))));
      },
    },
  );
  const at = (time: string): VerifiedInput => {
    const r = verify({ inputs: [{ source: "test", data: ex.input }], trust: TRUST, at: time }).inputs[0];
    if (r === undefined || isFailedInput(r)) throw new Error("not verified");
    return r;
  };

  it("a receipt issued later than the time + 300 s FAILs E_NOT_YET_VALID; the other passes; nothing else changes", () => {
    const input = at("2026-10-01T09:30:00Z");
    expectOnly(input, "FAIL");
    expect(input.properties.peacReceipts.checks.map((c) => [c.id, c.state, c.code])).toEqual([
      ["peac.carrier", "PASS", undefined],
      ["peac.carrier", "FAIL", "E_NOT_YET_VALID"],
    ]);
  });

  it("after every iat, nothing expires: PASS, and no unchecked-time line", () => {
    const input = at("2100-01-01T00:05:00+00:00");
    expectOnly(input, "PASS");
    expect(input.properties.peacReceipts.checks.map((c) => c.id)).toEqual(["peac.carrier", "peac.carrier"]);
  });

  it("a time that is not RFC 3339: the run's error through verify() (exit 2); the property itself INCONCLUSIVE, saying why", () => {
    const report = verify({ inputs: [{ source: "test", data: ex.input }], trust: TRUST, at: "yesterday" });
    expect([report.policy.exitCode, report.error?.code, report.error?.source]).toEqual([2, "TIME_INVALID", "--at"]);
    const loaded = loadEvidence(ex.input);
    const trust = loadTrustConfig(TRUST);
    if (!loaded.ok || !trust.ok) throw new Error("not loaded");
    const r = peacReceipts(new EvidenceContext(loaded.value, trust.value, { at: "yesterday" }));
    expect(r.state).toBe("INCONCLUSIVE");
    expect(r.checks.find((c) => c.id === "peac.time")?.detail).toMatch(/not an RFC 3339 date-time/);
  });
});

describe("peacReceipts and the policy", () => {
  const verified = (placements: Array<[Where, unknown]>, require: boolean) => {
    const ex = capture({}, { finalTask: (task) => placements.forEach(([w, p]) => place(task, w, fromPlain(p))) });
    return verify({
      inputs: [{ source: "t", data: ex.input }],
      trust: TRUST,
      ...(require ? { require: ["peacReceipts" as const] } : {}),
    });
  };

  it("--require peacReceipts gates on it: INCONCLUSIVE exits 3, PASS exits 0; without it INCONCLUSIVE does not matter", () => {
    expect(verified([["history", peacPayload(carrierOf(BY_UNKNOWN))]], true).policy.exitCode).toBe(3);
    expect(verified([["history", peacPayload(carrierOf(BY_UNKNOWN))]], false).policy.exitCode).toBe(0);
    expect(verified([["history", peacPayload(carrierOf(R2))]], true).policy.exitCode).toBe(0);
    expect(verified([], true).policy.exitCode).toBe(3);
  });

  it("a FAIL exits 1 but leaves the evidence level where the evidence put it", () => {
    const r = verified([["history", peacPayload(carrierOf(tamperedPayload(R2)))]], false);
    const input = r.inputs[0] as VerifiedInput;
    expect([r.policy.exitCode, input.evidenceLevel.achieved]).toEqual([1, "EXTERNALLY_REGISTERED"]);
  });
});

describe("peacReceipts: revocation wins over a pin (a JWKS copied with its revoked_keys)", () => {
  /** Issuer A's JWKS lists k1 and the retired k0; its revoked_keys lists k0. */
  const JWKS_TRUST = {
    ...(e.trust as JsonObject),
    peacIssuers: fromPlain([
      {
        iss: A.iss,
        keys: [
          { kid: A.kid, key: A.publicKeyHex },
          { kid: REVOKED.kid, key: REVOKED.publicKeyHex },
        ],
        revokedKids: [REVOKED.kid],
      },
    ]),
  } as JsonObject;

  it("the trust file is valid; the revoked kid's receipt FAILs E_REVOKED_KEY_USED, noting the pin; the others PASS; exit 1", () => {
    const ex = capture(
      {},
      {
        finalTask: (task) =>
          place(task, "history", fromPlain(peacPayload(carrierOf(R1), carrierOf(BY_REVOKED), carrierOf(R2)))),
      },
    );
    const r = verify({ inputs: [{ source: "t", data: ex.input }], trust: JWKS_TRUST });
    expect(r.error).toBeUndefined();
    const input = r.inputs[0] as VerifiedInput;
    expectOnly(input, "FAIL");
    expect(carrierOutcomes(input)).toEqual([
      [carrierPath("history", 0), "PASS", undefined],
      [carrierPath("history", 1), "FAIL", "E_REVOKED_KEY_USED"],
      [carrierPath("history", 2), "PASS", undefined],
    ]);
    expect(carrierCheck(input, carrierPath("history", 1)).detail).toContain(
      'the trust file lists kid "k0" as revoked for https://issuer.example (it also pins a key under that kid: revocation wins)',
    );
    expect([r.policy.exitCode, input.exitCode]).toEqual([1, 1]);
  });

  it("honest: the same trust file and receipts under the kept kid only: PASS, exit 0", () => {
    const ex = capture(
      {},
      { finalTask: (task) => place(task, "history", fromPlain(peacPayload(carrierOf(R1), carrierOf(R2)))) },
    );
    const r = verify({ inputs: [{ source: "t", data: ex.input }], trust: JWKS_TRUST });
    expectOnly(r.inputs[0] as VerifiedInput, "PASS");
    expect(r.policy.exitCode).toBe(0);
  });
});

describe("peacReceipts report text", () => {
  it("writes control characters and bidi overrides in claims, kids and issuers as \\uXXXX", async () => {
    const did = await peacSigner("did issuer", "did:web:evil\u001b[32m", "k\u202e1");
    const jws = await did.sign(claims(did, { jti: "j\u001b[2K", sub: "line\nbreak\u009b" }));
    const input = run([["history", peacPayload(carrierOf(jws))]]);
    const c = carrierCheck(input, carrierPath("history"));
    expect([c.state, c.code]).toEqual(["INCONCLUSIVE", "E_KEY_NOT_FOUND"]);
    const text = JSON.stringify([c.detail, c.values]);
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect([c.values?.iss, c.values?.kid, c.values?.jti, c.values?.sub]).toEqual([
      "did:web:evil\\u001b[32m",
      "k\\u202e1",
      "j\\u001b[2K",
      "line\\u000abreak\\u009b",
    ]);
    expect(c.detail).toContain("did:web:evil\\u001b[32m");
  });
});
