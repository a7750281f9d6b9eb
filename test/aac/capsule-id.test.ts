import { describe, expect, it } from "vitest";
import { checkCarriedCapsuleId, computeCapsuleId, identityPreImage } from "../../src/aac/capsule-id.js";
import { jcs } from "../../src/canon/jcs.js";
import { excludeTopLevel } from "../../src/canon/jcs-n.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { fromPlain, member, newJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import type { FailureCode } from "../../src/codes/index.js";
import { sha256Hex, utf8 } from "../../src/util/bytes.js";
import { describeExternal, hasExternal, listExternal, readExternal } from "../helpers/external.js";
import { asObject, field, objectField, readVector, str } from "../helpers/strict-vector.js";

function idOf(capsule: JsonValue): string {
  const r = computeCapsuleId(capsule);
  if (!r.ok) throw new Error(`${r.code} at ${r.path}: ${r.detail}`);
  return r.value.capsuleId;
}

function failureOf(r: { ok: true } | { ok: false; code: FailureCode; path?: string }) {
  return r.ok ? "no failure" : { code: r.code, path: r.path };
}

/** A copy of a capsule with some top-level members replaced (undefined: removed). */
function edited(capsule: JsonObject, changes: Record<string, unknown>): JsonObject {
  const out = newJsonObject();
  for (const k of Object.keys(capsule)) out[k] = capsule[k] as JsonValue;
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete out[k];
    else out[k] = fromPlain(v);
  }
  return out;
}

const HEX_A = "a".repeat(64);

/** A format "4" capsule with the members that only format "4" commits to: chain, constraints: [], a null. */
const FORMAT_4 = asObject(
  fromPlain({
    action_id: "act/1",
    action_type: "decide",
    canonicalization_id: "jcs",
    capsule_id: HEX_A,
    chain: { parent_capsule_id: "b".repeat(64), relation: "supersedes" },
    constraints: [],
    disposition: { approver: "policy", decision: "accept", human_disposed: false, note: null },
    format_version: "4",
    key_id: "c".repeat(64),
    operator: "acme",
    signature: "d28443a10126a0",
    timestamp: "2026-09-08T06:04:12Z",
  }),
  "capsule",
);

describe("computeCapsuleId: format 4", () => {
  it("is SHA-256 over JCS of the capsule minus capsule_id, signature and key_id; chain, [] and null take part", () => {
    const r = computeCapsuleId(FORMAT_4);
    if (!r.ok) throw new Error(r.detail);
    expect(r.value.formatVersion).toBe("4");
    expect(r.value.preImage).toBe(
      '{"action_id":"act/1","action_type":"decide","canonicalization_id":"jcs","chain":{"parent_capsule_id":"' +
        "b".repeat(64) +
        '","relation":"supersedes"},"constraints":[],"disposition":{"approver":"policy","decision":"accept","human_disposed":false,"note":null},"format_version":"4","operator":"acme","timestamp":"2026-09-08T06:04:12Z"}',
    );
    expect(r.value.capsuleId).toBe(sha256Hex(utf8(r.value.preImage)));
  });

  it("changes when chain or constraints change, not when the local-only envelope fields do", () => {
    const id = idOf(FORMAT_4);
    expect(idOf(edited(FORMAT_4, { chain: { parent_capsule_id: "e".repeat(64), relation: "supersedes" } }))).not.toBe(
      id,
    );
    expect(idOf(edited(FORMAT_4, { chain: undefined }))).not.toBe(id);
    expect(idOf(edited(FORMAT_4, { constraints: undefined }))).not.toBe(id);
    expect(idOf(edited(FORMAT_4, { signature: "00", key_id: "f".repeat(64), capsule_id: "0".repeat(64) }))).toBe(id);
    expect(idOf(edited(FORMAT_4, { signature: undefined, key_id: undefined, capsule_id: undefined }))).toBe(id);
  });

  it("admits safe integers only: a float or an unsafe integer is refused where it is", () => {
    expect(failureOf(computeCapsuleId(edited(FORMAT_4, { effect: { amount: fromPlain(12.5) } })))).toEqual({
      code: "CANON_FLOAT",
      path: "effect.amount",
    });
    const unsafe = edited(FORMAT_4, { effect: { amount: parseOk("9007199254740992") } });
    expect(failureOf(computeCapsuleId(unsafe))).toEqual({ code: "CANON_UNSAFE_INTEGER", path: "effect.amount" });
    // The AAC reference reads -0 as the integer 0 (content-binding.md §3.4); JCS-N would refuse it.
    expect(computeCapsuleId(edited(FORMAT_4, { n: parseOk("-0") })).ok).toBe(true);
  });
});

describe("computeCapsuleId: vintage format 2", () => {
  const FORMAT_2 = edited(FORMAT_4, { format_version: "2", canonicalization_id: undefined });

  it("is JCS-N of the capsule minus capsule_id, chain, signature and key_id", () => {
    const r = computeCapsuleId(FORMAT_2);
    if (!r.ok) throw new Error(r.detail);
    expect(r.value.formatVersion).toBe("2");
    expect(r.value.preImage).toBe(
      '{"action_id":"act/1","action_type":"decide","disposition":{"approver":"policy","decision":"accept","human_disposed":false},"format_version":"2","operator":"acme","timestamp":"2026-09-08T06:04:12Z"}',
    );
    expect(idOf(edited(FORMAT_2, { chain: undefined, constraints: undefined, signature: undefined }))).toBe(
      r.value.capsuleId,
    );
  });

  it("applies the JCS-N wire rules, -0 included", () => {
    expect(failureOf(computeCapsuleId(edited(FORMAT_2, { n: parseOk("-0") })))).toEqual({
      code: "CANON_NEGATIVE_ZERO",
      path: "n",
    });
  });
});

function parseOk(text: string): JsonValue {
  const r = parseStrictJson(text);
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

describe("computeCapsuleId: format and canonicalization_id", () => {
  const cases: [string, Record<string, unknown>, FailureCode, string][] = [
    ["no format_version", { format_version: undefined }, "AAC_FORMAT_VERSION_MISSING", "format_version"],
    ["a numeric format_version", { format_version: 4 }, "AAC_FORMAT_VERSION_NOT_STRING", "format_version"],
    ["format_version null", { format_version: null }, "AAC_FORMAT_VERSION_NOT_STRING", "format_version"],
    ['format "1"', { format_version: "1" }, "AAC_FORMAT_VERSION_UNSUPPORTED", "format_version"],
    ['the unpublished format "3"', { format_version: "3" }, "AAC_FORMAT_VERSION_UNSUPPORTED", "format_version"],
    [
      'format "4" without canonicalization_id',
      { canonicalization_id: undefined },
      "AAC_CANONICALIZATION_ID_MISSING",
      "canonicalization_id",
    ],
    [
      "a numeric canonicalization_id",
      { canonicalization_id: 1 },
      "AAC_CANONICALIZATION_ID_NOT_STRING",
      "canonicalization_id",
    ],
    [
      "canonicalization_id null",
      { canonicalization_id: null },
      "AAC_CANONICALIZATION_ID_NOT_STRING",
      "canonicalization_id",
    ],
    [
      'canonicalization_id "jcs-n" on format "4"',
      { canonicalization_id: "jcs-n" },
      "AAC_CANONICALIZATION_PROFILE_MISMATCH",
      "canonicalization_id",
    ],
    [
      'canonicalization_id "" on format "4"',
      { canonicalization_id: "" },
      "AAC_CANONICALIZATION_PROFILE_MISMATCH",
      "canonicalization_id",
    ],
    [
      'canonicalization_id "JCS" on format "4"',
      { canonicalization_id: "JCS" },
      "AAC_CANONICALIZATION_PROFILE_MISMATCH",
      "canonicalization_id",
    ],
    [
      'canonicalization_id declared on format "2"',
      { format_version: "2" },
      "AAC_CANONICALIZATION_PROFILE_MISMATCH",
      "canonicalization_id",
    ],
    [
      'canonicalization_id null on format "2"',
      { format_version: "2", canonicalization_id: null },
      "AAC_CANONICALIZATION_PROFILE_MISMATCH",
      "canonicalization_id",
    ],
  ];
  for (const [name, changes, code, path] of cases) {
    it(`refuses ${name}: ${code}`, () => {
      const capsule = edited(FORMAT_4, changes);
      expect(failureOf(computeCapsuleId(capsule))).toEqual({ code, path });
      expect(failureOf(checkCarriedCapsuleId(capsule))).toEqual({ code, path });
    });
  }

  it("refuses a capsule that is not an object", () => {
    for (const v of [fromPlain([FORMAT_4]), null, "capsule"]) {
      expect(failureOf(computeCapsuleId(v))).toEqual({ code: "AAC_NOT_AN_OBJECT", path: "$" });
      expect(failureOf(checkCarriedCapsuleId(v))).toEqual({ code: "AAC_NOT_AN_OBJECT", path: "$" });
    }
  });
});

describe("checkCarriedCapsuleId", () => {
  const sealed = edited(FORMAT_4, { capsule_id: idOf(FORMAT_4) });

  it("accepts a capsule whose carried id recomputes", () => {
    expect(checkCarriedCapsuleId(sealed)).toEqual({
      ok: true,
      value: { capsuleId: idOf(FORMAT_4), formatVersion: "4" },
    });
  });

  it("checks the carried id's grammar before comparing: no trimming, no case folding, no prefix", () => {
    const id = idOf(FORMAT_4);
    for (const carried of [`${id}\n`, ` ${id} `, id.toUpperCase(), `sha256:${id}`, id.slice(0, 63), 7]) {
      expect(failureOf(checkCarriedCapsuleId(edited(FORMAT_4, { capsule_id: carried })))).toEqual({
        code: "AAC_CAPSULE_ID_MALFORMED",
        path: "capsule_id",
      });
    }
    expect(failureOf(checkCarriedCapsuleId(edited(FORMAT_4, { capsule_id: undefined })))).toEqual({
      code: "AAC_CAPSULE_ID_MISSING",
      path: "capsule_id",
    });
  });

  it("reports a mismatch with both values, and passes canonicalization failures through", () => {
    const r = checkCarriedCapsuleId(edited(sealed, { operator: "mallory" }));
    expect(failureOf(r)).toEqual({ code: "AAC_CAPSULE_ID_MISMATCH", path: "capsule_id" });
    if (!r.ok) expect(r.detail).toContain(idOf(FORMAT_4));
    expect(failureOf(checkCarriedCapsuleId(edited(sealed, { x: fromPlain(0.5) })))).toEqual({
      code: "CANON_FLOAT",
      path: "x",
    });
  });
});

/** The AAC finding codes that concern the capsule's identity, and the failure each must produce. */
const IDENTITY_FINDING: Record<string, FailureCode> = {
  unsupported_format_version: "AAC_FORMAT_VERSION_UNSUPPORTED",
  capsule_id_mismatch: "AAC_CAPSULE_ID_MISMATCH",
  float_in_digest_field: "CANON_FLOAT",
  unsafe_integer_in_digest_field: "CANON_UNSAFE_INTEGER",
};

/**
 * One capsule against its expected record `{capsule_id_recomputed, findings}`. The other Class-1
 * findings (checks 3–8) are semantic and out of scope: for those capsules the identity is clean.
 */
function expectCapsuleIdentity(capsule: JsonObject, expected: JsonObject): void {
  const findings = (field(expected, "findings") as JsonValue[]).map((f) => asObject(f, "finding"));
  const identity = findings.filter((f) => str(f, "code") in IDENTITY_FINDING);
  expect(identity.length).toBeLessThanOrEqual(1);
  const finding = identity[0];
  const recomputed = member(expected, "capsule_id_recomputed");
  const carried = str(capsule, "capsule_id");
  const code = finding === undefined ? undefined : IDENTITY_FINDING[str(finding, "code")];

  if (code === "CANON_FLOAT" || code === "CANON_UNSAFE_INTEGER") {
    // The strict parser accepted the value (12.5 and 2^53 are exact doubles); the canonicalizer refuses it.
    expect(recomputed).toBeNull();
    const at = /at ([A-Za-z0-9_.[\]]+)/.exec(str(finding as JsonObject, "detail"))?.[1];
    expect(failureOf(computeCapsuleId(capsule))).toEqual({ code, path: at });
    expect(failureOf(checkCarriedCapsuleId(capsule))).toEqual({ code, path: at });
    return;
  }
  if (typeof recomputed !== "string") throw new Error("capsule_id_recomputed is missing");
  if (code === "AAC_FORMAT_VERSION_UNSUPPORTED") {
    // This verifier refuses the version; the reference still reported the id, by the vintage rule.
    expect(failureOf(computeCapsuleId(capsule))).toEqual({ code, path: "format_version" });
    const vintage = identityPreImage(capsule, "2");
    expect(vintage.ok && sha256Hex(utf8(vintage.value))).toBe(recomputed);
    expect(carried).toBe(recomputed);
    return;
  }
  expect(idOf(capsule)).toBe(recomputed);
  const check = checkCarriedCapsuleId(capsule);
  if (code === "AAC_CAPSULE_ID_MISMATCH") {
    expect(carried).not.toBe(recomputed);
    expect(failureOf(check)).toEqual({ code, path: "capsule_id" });
    if (!check.ok) expect(check.detail).toBe(`recomputed ${recomputed} != carried ${carried} (format "2")`);
  } else {
    expect(check.ok).toBe(carried === recomputed);
    expect(carried).toBe(recomputed);
  }
}

describeExternal("aac", "AAC capsule vectors (aac/capsule, format 2)", () => {
  const cases = listExternal("aac", "capsule").filter((name) => hasExternal("aac", "capsule", name, "input.json"));

  it("covers the 37 published cases: 23 pos, 13 neg, 1 honesty", () => {
    expect(cases).toHaveLength(37);
    expect([
      cases.filter((c) => c.startsWith("pos-")).length,
      cases.filter((c) => c.startsWith("neg-")).length,
    ]).toEqual([23, 13]);
  });

  for (const name of cases) {
    it(name, () => {
      const input = readVector("aac", "capsule", name, "input.json");
      const expected = readVector("aac", "capsule", name, "expected.json");
      if (member(input, "ledger") === undefined) {
        expectCapsuleIdentity(input, expected);
        return;
      }
      // A store case: every record's own identity, in ledger order (the store checks are out of scope).
      const ledger = field(input, "ledger") as JsonValue[];
      const results = field(expected, "results") as JsonValue[];
      expect(ledger.length).toBe(results.length);
      ledger.forEach((record, i) => expectCapsuleIdentity(asObject(record, "record"), asObject(results[i], "result")));
    });
  }
});

describeExternal("scitt-cose", "scitt-cose capsule-id vectors", () => {
  const expected = readVector("scitt-cose", "capsule-id", "expected.json");

  it("covers all four capsules", () => {
    expect(Object.keys(expected).sort()).toEqual(["capsule-1", "capsule-2", "capsule-2-tampered", "capsule-3"]);
  });

  for (const name of Object.keys(expected)) {
    it(name, () => {
      const e = objectField(expected, name);
      const capsule = readVector("scitt-cose", "capsule-id", `${name}.json`);
      expect(str(capsule, "capsule_id")).toBe(str(e, "stated"));
      expect(idOf(capsule)).toBe(str(e, "recomputed"));
      const check = checkCarriedCapsuleId(capsule);
      expect(check.ok).toBe(field(e, "ok"));
      if (!check.ok) {
        expect(check.code).toBe("AAC_CAPSULE_ID_MISMATCH");
        expect(check.detail).toContain(str(e, "recomputed"));
        expect(check.detail).toContain(str(e, "stated"));
      }
    });
  }
});

describeExternal("a2a-reference", "capsule_id of the reference A2A positive vector (format 4)", () => {
  const parsed = parseStrictJson(readExternal("a2a-reference", "positive_vector.json"));
  if (!parsed.ok) throw new Error(parsed.detail);
  const capsule = objectField(objectField(asObject(parsed.value, "vector"), "evidenceBundle"), "capsule");

  it("recomputes the carried id af5b0a3e… over the 954-byte identity form", () => {
    const r = computeCapsuleId(capsule);
    if (!r.ok) throw new Error(r.detail);
    expect(r.value.capsuleId).toBe("af5b0a3e981a411e40ce22a81264e54f28702b693a33e71b1db8c47384ee49a9");
    expect(utf8(r.value.preImage).length).toBe(954);
    expect(checkCarriedCapsuleId(capsule)).toEqual({
      ok: true,
      value: { capsuleId: r.value.capsuleId, formatVersion: "4" },
    });
  });

  it("does not reproduce it when the local-only fields are kept (content-binding.md §7.1)", () => {
    const withBoth = jcs(excludeTopLevel(capsule, ["capsule_id"]));
    const withKeyId = jcs(excludeTopLevel(capsule, ["capsule_id", "signature"]));
    expect(withBoth.ok && sha256Hex(utf8(withBoth.value))).toMatch(/^d5a36219/);
    expect(withKeyId.ok && sha256Hex(utf8(withKeyId.value))).toMatch(/^cbe8c2bb/);
  });

  it("detects a changed operator", () => {
    const r = checkCarriedCapsuleId(edited(capsule, { operator: "someone-else" }));
    expect(failureOf(r)).toEqual({ code: "AAC_CAPSULE_ID_MISMATCH", path: "capsule_id" });
  });
});

describeExternal(
  "aac",
  "a vintage capsule that declares canonicalization_id (neg-v2-canonicalization-declared)",
  () => {
    it("is refused, and the reference's id 07dd16c1… is the one over the declaration", () => {
      const capsule = edited(readVector("aac", "capsule", "pos-executed-confirmed", "input.json"), {
        canonicalization_id: "jcs",
      });
      expect(failureOf(computeCapsuleId(capsule))).toEqual({
        code: "AAC_CANONICALIZATION_PROFILE_MISMATCH",
        path: "canonicalization_id",
      });
      const declared = identityPreImage(capsule, "4");
      expect(declared.ok && sha256Hex(utf8(declared.value))).toMatch(/^07dd16c1/);
      expect(str(capsule, "capsule_id")).toMatch(/^5b7c4ff1/);
    });
  },
);
