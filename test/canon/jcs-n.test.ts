import { describe, expect, it } from "vitest";
import { excludeTopLevel, jcsN, wireFaults } from "../../src/canon/jcs-n.js";
import { jcs } from "../../src/canon/jcs.js";
import { parseStrictJson } from "../../src/json/strict-json.js";
import { joinPath } from "../../src/json/path.js";
import {
  JsonNumber,
  fromPlain,
  isJsonObject,
  jsonEquals,
  member,
  newJsonObject,
  type JsonObject,
  type JsonValue,
} from "../../src/json/value.js";
import { isHex64, sha256Hex, utf8 } from "../../src/util/bytes.js";
import { describeExternal, listExternal, readExternal, readExternalText } from "../helpers/external.js";
import { asObject, expectPreImage, field, objectField, readVector, str, strings } from "../helpers/strict-vector.js";

function parse(text: string): JsonValue {
  const r = parseStrictJson(text);
  if (!r.ok) throw new Error(`${r.code}: ${r.detail}`);
  return r.value;
}

function preImageOf(text: string, exclusionSet?: string[]): string {
  const r = jcsN(parse(text), exclusionSet);
  if (!r.ok) throw new Error(`${r.code} at ${r.path}: ${r.detail}`);
  return r.value.preImage;
}

function failureOf(value: JsonValue, exclusionSet?: string[]) {
  const r = jcsN(value, exclusionSet);
  if (r.ok) throw new Error(`expected a failure, got ${r.value.preImage}`);
  return { code: r.code, path: r.path };
}

function digestOf(value: JsonValue, exclusionSet?: readonly string[]): string {
  const r = jcsN(value, exclusionSet);
  if (!r.ok) throw new Error(`${r.code} at ${r.path}: ${r.detail}`);
  return sha256Hex(utf8(r.value.preImage));
}

describe("jcsN: wire-level validation (step 1)", () => {
  it("refuses every number token that is not an integer token, by its lexeme", () => {
    expect(failureOf(parse('{"a":12.50}'))).toEqual({ code: "CANON_FLOAT", path: "a" });
    expect(failureOf(parse('{"a":1.0}'))).toEqual({ code: "CANON_FLOAT", path: "a" });
    expect(failureOf(parse('{"a":[1,1e2]}'))).toEqual({ code: "CANON_FLOAT", path: "a[1]" });
    expect(failureOf(parse('{"a":-0.0}'))).toEqual({ code: "CANON_FLOAT", path: "a" });
  });

  it("refuses the token -0 although its value is 0", () => {
    expect(failureOf(parse('{"n":{"m":-0}}'))).toEqual({ code: "CANON_NEGATIVE_ZERO", path: "n.m" });
    expect(preImageOf('{"n":0}')).toBe('{"n":0}');
  });

  it("refuses integers of magnitude 2^53 and above, keeps ±(2^53−1)", () => {
    expect(failureOf(parse("[9007199254740992]"))).toEqual({ code: "CANON_UNSAFE_INTEGER", path: "[0]" });
    expect(failureOf(parse("[-9007199254740992]"))).toEqual({ code: "CANON_UNSAFE_INTEGER", path: "[0]" });
    expect(preImageOf("[9007199254740991,-9007199254740991]")).toBe("[9007199254740991,-9007199254740991]");
  });

  it("refuses two member names equal after NFC, at any depth", () => {
    expect(failureOf(parse('{"\\u00c5":1,"A\\u030a":2}'))).toEqual({
      code: "CANON_DUPLICATE_MEMBER_NFC",
      path: '["A\u030a"]',
    });
    expect(failureOf(parse('{"x":[{"e\\u0301":1,"\\u00e9":2}]}'))).toEqual({
      code: "CANON_DUPLICATE_MEMBER_NFC",
      path: 'x[0]["\u00e9"]',
    });
  });

  it("validates members the exclusion set removes as well: validation comes first", () => {
    expect(failureOf(parse('{"id":1.5,"a":1}'), ["id"])).toEqual({ code: "CANON_FLOAT", path: "id" });
  });

  it("refuses values nested beyond the canonicalizer's cap", () => {
    let v: JsonValue = fromPlain(1);
    for (let i = 0; i < 300; i++) v = [v];
    expect(failureOf(v).code).toBe("CANON_TOO_DEEP");
  });

  it("lists every fault when asked to, in walk order", () => {
    const faults = wireFaults(parse('{"a":1.5,"b":[-0,{"c":2e0}]}'));
    expect(faults.map((f) => [f.code, f.path])).toEqual([
      ["CANON_FLOAT", "a"],
      ["CANON_NEGATIVE_ZERO", "b[0]"],
      ["CANON_FLOAT", "b[1].c"],
    ]);
    expect(wireFaults(parse('{"a":1.5,"b":-0}'), 1)).toHaveLength(1);
  });
});

describe("jcsN: exclusion, normalization, serialization (steps 2–4)", () => {
  it('drops null, [] and {} members bottom-up and keeps false, 0 and ""', () => {
    expect(preImageOf('{"a":{"c":null},"b":{"d":[]},"e":{},"f":false,"g":0,"h":""}')).toBe('{"f":false,"g":0,"h":""}');
  });

  it("never removes array elements, and keeps the top-level object even when it empties", () => {
    expect(preImageOf('{"x":[null,[],{},{"y":null}]}')).toBe('{"x":[null,[],{},{}]}');
    expect(preImageOf('{"a":null}')).toBe("{}");
    expect(preImageOf("[null,{}]")).toBe("[null,{}]");
  });

  it("excludes top-level names only", () => {
    expect(preImageOf('{"id":"x","sub":{"id":"y"}}', ["id"])).toBe('{"sub":{"id":"y"}}');
  });

  it("needs an object when an exclusion set is given", () => {
    expect(failureOf(parse("[1]"), [])).toEqual({ code: "CANON_NOT_AN_OBJECT", path: "$" });
    expect(failureOf(parse('"text"'), ["id"])).toEqual({ code: "CANON_NOT_AN_OBJECT", path: "$" });
  });

  it("refuses a lone surrogate in a value built in code (it has no UTF-8 form)", () => {
    const v = newJsonObject();
    v.s = "\ud800";
    expect(failureOf(v)).toEqual({ code: "CANON_LONE_SURROGATE", path: "s" });
  });

  it("returns the normalized value and leaves its input untouched", () => {
    const input = parse('{"a":{"b":null,"c":1},"d":[]}');
    const before = jcs(input);
    const r = jcsN(input);
    expect(r.ok && jsonEquals(r.value.normalized, parse('{"a":{"c":1}}'))).toBe(true);
    expect(jcs(input)).toEqual(before);
  });
});

/** Paths of every number token in a value: each MUST-FAIL input holds exactly one. */
function numberPaths(v: JsonValue, path = "$"): string[] {
  if (v instanceof JsonNumber) return [path];
  if (Array.isArray(v)) return v.flatMap((e, i) => numberPaths(e, joinPath(path, i)));
  if (isJsonObject(v)) return Object.keys(v).flatMap((k) => numberPaths(v[k] as JsonValue, joinPath(path, k)));
  return [];
}

/** The code each wire-level `failure_reason` of the KATs must produce. */
const WIRE_FAILURE_CODE: Record<string, string> = {
  float_in_digest_bearing_field: "CANON_FLOAT",
  unsafe_integer_in_digest_bearing_field: "CANON_UNSAFE_INTEGER",
  integer_formatting_divergence: "CANON_UNSAFE_INTEGER",
  invalid_wire_number_token: "CANON_NEGATIVE_ZERO",
};

type KatKind = "pass" | "wire-fail" | "contrast" | "identifier-grammar" | "strict-parse-reject";

function katKind(file: string): KatKind {
  const parsed = parseStrictJson(readExternal("cpb", "jcs-n", "kats", file));
  if (!parsed.ok) return "strict-parse-reject";
  const v = asObject(parsed.value, file);
  if (member(v, "must_fail") !== true) return "pass";
  if (member(v, "jcs_n_correct_digest") !== undefined) return "contrast";
  if (member(v, "cited_artifact") !== undefined) return "identifier-grammar";
  return "wire-fail";
}

describeExternal("cpb", "CPB jcs-n KATs (cpb/jcs-n/kats)", () => {
  const files = listExternal("cpb", "jcs-n", "kats");
  const kinds = new Map(files.map((f) => [f, katKind(f)]));
  const kat = (file: string) => readVector("cpb", "jcs-n", "kats", file);
  const exclusionOf = (v: JsonObject) =>
    member(v, "exclusion_set") === undefined ? undefined : strings(v, "exclusion_set");

  it("covers all 38 files: 25 pass, 6 wire-level MUST-FAIL, 4 contrast, 2 identifier grammar, 1 unparseable", () => {
    expect(files).toHaveLength(38);
    const count = (k: KatKind) => [...kinds.values()].filter((x) => x === k).length;
    expect([
      count("pass"),
      count("wire-fail"),
      count("contrast"),
      count("identifier-grammar"),
      count("strict-parse-reject"),
    ]).toEqual([25, 6, 4, 2, 1]);
  });

  for (const file of files.filter((f) => kinds.get(f) === "pass")) {
    it(`PASS ${file}: preimage, bytes and digest`, () => {
      const v = kat(file);
      const input = field(v, "input");
      const r = jcsN(input, exclusionOf(v));
      if (!r.ok) throw new Error(`${r.code} at ${r.path}: ${r.detail}`);
      expectPreImage(r.value.preImage, v);
      if (member(v, "normalized") !== undefined)
        expect(jsonEquals(r.value.normalized, field(v, "normalized"))).toBe(true);
      if (member(v, "after_exclusion") !== undefined) {
        expect(
          jsonEquals(
            excludeTopLevel(asObject(input, "input"), strings(v, "exclusion_set")),
            field(v, "after_exclusion"),
          ),
        ).toBe(true);
      }
    });
  }

  for (const file of files.filter((f) => kinds.get(f) === "wire-fail")) {
    it(`MUST-FAIL ${file}: rejected at the offending number token`, () => {
      const v = kat(file);
      const input = field(v, "input");
      const expected = WIRE_FAILURE_CODE[str(v, "failure_reason")];
      expect(expected).toBeDefined();
      const [path] = numberPaths(input);
      expect(failureOf(input, exclusionOf(v))).toEqual({ code: expected, path });
    });
  }

  for (const file of files.filter((f) => kinds.get(f) === "contrast")) {
    it(`contrast ${file}: the correct digest, not the contrast one`, () => {
      const v = kat(file);
      const r = jcsN(field(v, "input"), exclusionOf(v));
      if (!r.ok) throw new Error(r.detail);
      expectPreImage(r.value.preImage, v, {
        preImage: "jcs_n_correct_pre_image",
        bytesHex: "jcs_n_correct_pre_image_bytes_hex",
        digest: "jcs_n_correct_digest",
      });
      const contrast = Object.keys(v).filter((k) => k.endsWith("_contrast_digest"));
      expect(contrast).toHaveLength(1);
      const wrong = str(v, contrast[0] as string);
      expect(isHex64(wrong)).toBe(true);
      expect(sha256Hex(utf8(r.value.preImage))).not.toBe(wrong);
    });
  }

  for (const file of files.filter((f) => kinds.get(f) === "identifier-grammar")) {
    it(`MUST-FAIL ${file}: the carried identifier is refused by the id grammar`, () => {
      const v = kat(file);
      const cited = objectField(v, "cited_artifact");
      const correct = str(cited, "correct_derived_id_bare_hex");
      expect(digestOf(field(cited, "payload"), strings(objectField(cited, "registry_entry"), "exclusion_set"))).toBe(
        correct,
      );
      const carried = str(objectField(v, "typed_reference_with_wrong_representation"), "digest");
      expect(isHex64(correct)).toBe(true);
      expect(isHex64(carried)).toBe(false);
      // Only the whitespace differs: a verifier that trimmed would wrongly accept it.
      expect(carried.trim()).toBe(correct);
    });
  }

  it("MUST-FAIL 37-must-fail-duplicate-key.json: the strict parser rejects the file at the repeated name", () => {
    const [file] = files.filter((f) => kinds.get(f) === "strict-parse-reject");
    expect(file).toBe("37-must-fail-duplicate-key.json");
    expect(readExternalText("cpb", "jcs-n", "kats", file as string)).toMatch(/"failure_reason": "duplicate_key"/);
    const parsed = parseStrictJson(readExternal("cpb", "jcs-n", "kats", file as string));
    expect(parsed.ok ? undefined : [parsed.code, parsed.path]).toEqual(["JSON_DUPLICATE_MEMBER", "input.a"]);
  });
});

describeExternal("cpb", "CPB derived identifiers (cpb/jcs-n/derived-id)", () => {
  const vector = (file: string) => readVector("cpb", "jcs-n", "derived-id", file);

  it("has the 3 published files", () => {
    expect(listExternal("cpb", "jcs-n", "derived-id")).toEqual([
      "01-basic-derived-id.json",
      "02-carried-id-mismatch.json",
      "03-sd-encoded-form.json",
    ]);
  });

  it("01: derives the id through exclusion and normalization, and it equals the carried record_id", () => {
    const v = vector("01-basic-derived-id.json");
    const exclusion = strings(v, "exclusion_set");
    const payload = objectField(v, "full_payload");
    const r = jcsN(payload, exclusion);
    if (!r.ok) throw new Error(r.detail);
    expectPreImage(r.value.preImage, v, {
      preImage: "pre_image",
      bytesHex: "pre_image_bytes_hex",
      digest: "derived_id",
    });
    expect(jsonEquals(excludeTopLevel(payload, exclusion), field(v, "after_exclusion"))).toBe(true);
    expect(jsonEquals(r.value.normalized, field(v, "normalized"))).toBe(true);
    const withCarried = objectField(v, "full_payload_with_carried_id");
    expect(digestOf(withCarried, exclusion)).toBe(str(withCarried, "record_id"));
  });

  it("02 (MUST-FAIL): a carried id that does not recompute is detected", () => {
    const v = vector("02-carried-id-mismatch.json");
    const payload = objectField(v, "full_payload");
    const recomputed = digestOf(payload, strings(v, "exclusion_set"));
    expect(recomputed).toBe(str(v, "correct_derived_id"));
    expect(str(payload, "record_id")).toBe(str(v, "carried_id"));
    expect(recomputed).not.toBe(str(v, "carried_id"));
  });

  it("03: the id is over the SD-encoded form, not the plaintext", () => {
    const v = vector("03-sd-encoded-form.json");
    const exclusion = strings(v, "exclusion_set");
    const r = jcsN(field(v, "sd_encoded_payload"), exclusion);
    if (!r.ok) throw new Error(r.detail);
    expectPreImage(r.value.preImage, v, {
      preImage: "pre_image",
      bytesHex: "pre_image_bytes_hex",
      digest: "derived_id",
    });
    expect(jsonEquals(r.value.normalized, field(v, "normalized"))).toBe(true);
    expect(digestOf(field(v, "plaintext_payload_for_reference"), exclusion)).not.toBe(str(v, "derived_id"));
  });
});

/** RFC 6901 pointer tokens. */
function pointerTokens(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function resolvePointer(root: JsonValue, pointer: string): JsonValue {
  let v: JsonValue | undefined = root;
  for (const t of pointerTokens(pointer)) v = isJsonObject(v) ? member(v, t) : undefined;
  if (v === undefined) throw new Error(`pointer ${pointer} does not resolve`);
  return v;
}

function setPointer(root: JsonObject, pointer: string, value: JsonValue): void {
  const tokens = pointerTokens(pointer);
  let at = root;
  for (const t of tokens.slice(0, -1)) {
    if (!isJsonObject(member(at, t))) at[t] = newJsonObject();
    at = at[t] as JsonObject;
  }
  at[tokens[tokens.length - 1] as string] = value;
}

describeExternal("cpb", "CPB assembled preimages (cpb/jcs-n/assembled-preimage)", () => {
  const vector = (file: string) => readVector("cpb", "jcs-n", "assembled-preimage", file);

  it("01 (MUST-FAIL): without a member mapping, two readings of one declaration give two digests", () => {
    const v = vector("01-member-mapping-undeclared.json");
    const source = field(v, "source_object");
    const selected = strings(v, "selected_source_pointers").map((p) => resolvePointer(source, p));
    const digests = ["implementation_a", "implementation_b"].map((name) => {
      const impl = objectField(v, name);
      const assembled = objectField(impl, "assembled");
      // Both carry exactly the selected source values, each once: only member naming differs.
      const values = Object.keys(assembled).map((k) => assembled[k] as JsonValue);
      expect(values).toHaveLength(selected.length);
      for (const s of selected) expect(values.filter((x) => jsonEquals(x, s))).toHaveLength(1);
      const r = jcsN(assembled, strings(objectField(v, "declared_digest_context"), "exclusion_set"));
      if (!r.ok) throw new Error(r.detail);
      expectPreImage(r.value.preImage, impl);
      return str(impl, "digest");
    });
    expect(digests[0]).not.toBe(digests[1]);
  });

  it("02: the declared member mapping derives exactly the vector's input, whose digest reproduces", () => {
    const v = vector("02-member-mapping-declared.json");
    const source = field(v, "source_object");
    const mapping = objectField(objectField(v, "declared_digest_context"), "member_mapping");
    const assembled = newJsonObject();
    for (const f of field(mapping, "fields") as JsonValue[]) {
      const m = asObject(f, "mapping field");
      setPointer(assembled, str(m, "preimage_pointer"), resolvePointer(source, str(m, "source_pointer")));
    }
    for (const c of field(mapping, "constants") as JsonValue[]) {
      const m = asObject(c, "mapping constant");
      setPointer(assembled, str(m, "preimage_pointer"), field(m, "value"));
    }
    expect(jsonEquals(assembled, field(v, "input"))).toBe(true);
    const r = jcsN(assembled, strings(v, "exclusion_set"));
    if (!r.ok) throw new Error(r.detail);
    expectPreImage(r.value.preImage, v);
    expect(jsonEquals(r.value.normalized, field(v, "normalized"))).toBe(true);
  });
});

describeExternal("cpb", "CPB subject-binding-diff (plain jcs against jcs-n)", () => {
  const files = listExternal("cpb", "subject-binding-diff");

  it("has diff-01 … diff-04", () => {
    expect(files).toHaveLength(4);
  });

  for (const file of files) {
    it(`${file}: both constructions, as the vector records them`, () => {
      const v = readVector("cpb", "subject-binding-diff", file);
      const action = field(v, "action");
      const plain = jcs(action, { numbers: "es6" });
      if (!plain.ok) throw new Error(plain.detail);
      const jcsSide = objectField(v, "jcs");
      expectPreImage(plain.value, jcsSide);
      const jcsNSide = objectField(v, "jcs_n");
      if (member(jcsNSide, "must_fail") === true) {
        expect(str(jcsNSide, "failure_reason")).toBe("float_in_digest_bearing_field");
        expect(failureOf(action)).toEqual({ code: "CANON_FLOAT", path: "confidence" });
        // The AAC / profile rule refuses the float as well, although CPB's jcs accepts it.
        const aac = jcs(action, { numbers: "safe-integers" });
        expect(aac.ok ? undefined : [aac.code, aac.path]).toEqual(["CANON_FLOAT", "confidence"]);
      } else {
        const r = jcsN(action);
        if (!r.ok) throw new Error(r.detail);
        expectPreImage(r.value.preImage, jcsNSide);
        expect(str(jcsNSide, "digest")).not.toBe(str(jcsSide, "digest"));
      }
    });
  }
});
