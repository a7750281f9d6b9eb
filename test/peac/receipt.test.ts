/**
 * The receipt verifier's own failure paths, each reached by a receipt @peac/crypto signs, with the
 * exact state and code: decode, I-JSON, constraints, envelope budgets, time rules.
 */
import { describe, expect, it } from "vitest";
import { verifyReceipt } from "../../src/peac/receipt.js";
import { decodeCompactJws } from "../../src/peac/jws.js";
import { parseIJson } from "../../src/peac/ijson.js";
import { loadPeacIssuers } from "../../src/trust/peac-issuers.js";
import { fromPlain, type JsonObject } from "../../src/json/value.js";
import { claims, issuerEntry, peacSigner } from "./signer.js";

const S = await peacSigner("receipt unit tests", "https://issuer.example", "k1");
const issuers = (() => {
  const r = loadPeacIssuers(fromPlain({ peacIssuers: [issuerEntry(S)] }) as JsonObject);
  if (!r.ok) throw new Error(r.detail);
  return r.value;
})();
const HEADER = { typ: "interaction-record+jwt", alg: "EdDSA", kid: "k1" };
const b64 = (s: string): string => Buffer.from(s, "utf8").toString("base64url");
const verdict = (jws: string, now?: number) => {
  const v = verifyReceipt(jws, issuers, now);
  return [v.state, v.code];
};

const GOOD = await S.sign(claims(S));
const [h, p, s] = GOOD.split(".") as [string, string, string];

describe("decode failures", () => {
  it.each([
    ["two segments", `${h}.${p}`, "E_INVALID_FORMAT"],
    ["four segments", `${h}.${p}.${s}.${s}`, "E_INVALID_FORMAT"],
    ["a header that is an array", `${b64("[1]")}.${p}.${s}`, "E_INVALID_FORMAT"],
    ["a header that is not JSON", `${b64("{typ")}.${p}.${s}`, "E_INVALID_FORMAT"],
    ["alg ES256", `${b64(JSON.stringify({ ...HEADER, alg: "ES256" }))}.${p}.${s}`, "E_INVALID_FORMAT"],
    ["alg none", `${b64(JSON.stringify({ ...HEADER, alg: "none" }))}.${p}.${s}`, "E_INVALID_FORMAT"],
    [
      "typ in another case",
      `${b64(JSON.stringify({ ...HEADER, typ: "Interaction-Record+JWT" }))}.${p}.${s}`,
      "E_INVALID_FORMAT",
    ],
    [
      "a header with a duplicate member",
      `${b64('{"typ":"interaction-record+jwt","alg":"EdDSA","kid":"k1","kid":"k2"}')}.${p}.${s}`,
      "E_IJSON_DUPLICATE_MEMBER_NAME",
    ],
    ["a payload that is a string", `${h}.${b64('"claims"')}.${s}`, "E_INVALID_FORMAT"],
    [
      "a payload number beyond 2^53",
      `${h}.${b64('{"peac_version":"0.2","iat":9007199254740993}')}.${s}`,
      "E_IJSON_NUMBER_OUT_OF_RANGE",
    ],
    [
      "a payload with a lone surrogate",
      `${h}.${b64('{"peac_version":"0.2","sub":"\\ud800"}')}.${s}`,
      "E_IJSON_INVALID_STRING",
    ],
    [
      "a non-canonical header encoding",
      `${h.slice(0, -1)}${h.endsWith("J9") ? "J" : h.slice(-1)}=.${p}.${s}`,
      "PEAC_JWS_NONCANONICAL_B64URL",
    ],
  ])("%s", (_what, jws, code) => {
    const r = decodeCompactJws(jws);
    expect(r.ok ? "decoded" : r.code).toBe(code);
    expect(verdict(jws)).toEqual(["FAIL", code]);
  });
  it("a JWS over 262,144 bytes is not parsed", () => {
    const r = decodeCompactJws(`${"a".repeat(262_143)}.b.c`);
    expect(r.ok ? "decoded" : [r.code, r.detail]).toEqual([
      "E_INVALID_FORMAT",
      "JWS exceeds maximum size of 262144 bytes",
    ]);
  });
});

describe("claims that no key could make valid, and time", () => {
  it("nesting deeper than PEAC's kernel limit (32) is E_CONSTRAINT_VIOLATION", async () => {
    let deep: unknown = "x";
    for (let i = 0; i < 33; i++) deep = { d: deep };
    expect(verdict(await S.signRaw(HEADER, claims(S, { extensions: { "com.example/deep": deep } })))).toEqual([
      "FAIL",
      "E_CONSTRAINT_VIOLATION",
    ]);
  });
  it("nesting beyond the scanner's own cap is refused before any recursion can exhaust the stack", () => {
    const bytes = new TextEncoder().encode(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    const r = parseIJson(bytes);
    expect(r.ok ? "parsed" : r.code).toBe("E_CONSTRAINT_VIOLATION");
  });
  it("an extension group over its 65,536-byte budget is E_INVALID_FORMAT naming E_EXTENSION_SIZE_EXCEEDED", async () => {
    const jws = await S.signRaw(
      HEADER,
      claims(S, { extensions: { "com.example/big": { a: "x".repeat(40_000), b: "y".repeat(30_000) } } }),
    );
    const v = verifyReceipt(jws, issuers, undefined);
    expect([v.state, v.code]).toEqual(["FAIL", "E_INVALID_FORMAT"]);
    expect(v.detail).toContain("E_EXTENSION_SIZE_EXCEEDED");
  });
  it("an unknown top-level claim (aud, rid: Wire 0.1's) is E_INVALID_FORMAT", async () => {
    expect(verdict(await S.sign(claims(S, { aud: "https://verifier.example" })))).toEqual(["FAIL", "E_INVALID_FORMAT"]);
    expect(verdict(await S.sign(claims(S, { rid: "r-1" })))).toEqual(["FAIL", "E_INVALID_FORMAT"]);
  });
  it("occurred_at later than the time + 300 s is E_OCCURRED_AT_FUTURE; after iat only a warning", async () => {
    const jws = await S.sign(claims(S, { iat: 1790846990, occurred_at: "2026-10-01T09:40:00Z" }));
    expect(verdict(jws, 1790846990)).toEqual(["FAIL", "E_OCCURRED_AT_FUTURE"]);
    const v = verifyReceipt(jws, issuers, 1790847700);
    expect([v.state, v.warnings]).toEqual(["PASS", ["occurred_at_skew /occurred_at", "type_unregistered /type"]]);
  });
  it("iat exactly at the time + 300 s passes; one second later fails", async () => {
    const jws = await S.sign(claims(S, { iat: 1790847300 }));
    expect([verdict(jws, 1790847000), verdict(jws, 1790846999)]).toEqual([
      ["PASS", undefined],
      ["FAIL", "E_NOT_YET_VALID"],
    ]);
  });
  it("a number written 1790846990.0 is the integer JSON.parse reads, as in PEAC", async () => {
    const payload = JSON.stringify(claims(S)).replace('"iat":1790846990', '"iat":1790846990.0');
    expect(payload).toContain("1790846990.0");
    expect(verdict(await S.signText(JSON.stringify(HEADER), payload), 1790846990)).toEqual(["PASS", undefined]);
  });
});
