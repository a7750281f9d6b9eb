/**
 * The verifier's comparison of two copies of one Message (`disagreeingCopy`) against a judge
 * written from the contract alone (message-oracle.ts): on pairs of copies spelled independently
 * (message-pairs.ts), the same Message or one real change apart, the two must say the same.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseStrictJson } from "../../src/json/strict-json.js";
import type { JsonValue } from "../../src/json/value.js";
import { readMessage } from "../../src/input/a2a.js";
import { disagreeingCopy } from "../../src/input/request.js";
import { runsFor, seedFor } from "./config.js";
import { sameMessage } from "./message-oracle.js";
import { pair } from "./message-pairs.js";

function parsed(text: string): JsonValue {
  const r = parseStrictJson(text);
  if (!r.ok) throw new Error(`not JSON: ${text}`);
  return r.value;
}

/** The verifier's verdict: the two copies agree. Each copy must read as a Message. */
function verifierSame(a: JsonValue, b: JsonValue): boolean {
  const x = readMessage(a, "a", []);
  const y = readMessage(b, "b", []);
  if (!x.ok || !y.ok) throw new Error(`not a Message: ${JSON.stringify(x.ok ? y : x)}`);
  return disagreeingCopy([x.value, y.value]) === undefined;
}

const same = (a: string, b: string) => sameMessage(parsed(a), parsed(b));
const msg = (rest: string) => `{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]${rest}}`;

describe("the independent judge of one Message", () => {
  it("reads numbers by their exact value", () => {
    for (const n of ["60.0", "6e1", "600E-1", "6.0e+1"])
      expect(same(msg(`,"metadata":{"d":60}`), msg(`,"metadata":{"d":${n}}`))).toBe(true);
    expect(same(msg(`,"metadata":{"d":60.5}`), msg(`,"metadata":{"d":61}`))).toBe(false);
    expect(same(msg(`,"metadata":{"d":-0}`), msg(`,"metadata":{"d":0.0}`))).toBe(true);
  });

  it("takes null, defaults and an id one copy leaves out as absent, and ignores member order", () => {
    const plain = msg("");
    for (const rest of [
      `,"metadata":null`,
      `,"metadata":{}`,
      `,"extensions":[]`,
      `,"reference_task_ids":null`,
      `,"taskId":""`,
      `,"contextId":"c1","task_id":"t1"`,
    ])
      expect(same(plain, msg(rest)), rest).toBe(true);
    expect(same(msg(`,"taskId":"t1"`), msg(`,"taskId":"t2"`))).toBe(false);
    expect(same(`{"parts":[{"text":"hi"}],"role":1,"message_id":"m1"}`, plain)).toBe(true);
  });

  it("keeps what a Struct or a Value holds, and what the Message does not define", () => {
    expect(same(msg(`,"metadata":{"k":null}`), msg(""))).toBe(false);
    expect(same(msg(`,"metadata":{"k":{}}`), msg(`,"metadata":{"k":[]}`))).toBe(false);
    const data = (d: string) => `{"messageId":"m1","role":"ROLE_USER","parts":[{"data":${d}}]}`;
    expect(same(data("{}"), data("[]"))).toBe(false);
    expect(same(data("false"), data('""'))).toBe(false);
    expect(same(msg(`,"extra":"x"`), msg(""))).toBe(false);
  });

  it("reads bytes in any base64 ProtoJSON accepts, and nothing else as bytes", () => {
    const raw = (s: string) => `{"messageId":"m1","role":"ROLE_USER","parts":[{"raw":"${s}"}]}`;
    for (const s of ["-_8", "-_8=", "+/8"]) expect(same(raw("+/8="), raw(s)), s).toBe(true);
    expect(same(raw("+/8="), raw("+/9="))).toBe(false);
    expect(same(raw("+/8="), raw("+/8=="))).toBe(false);
  });
});

describe("the verifier's comparison of copies agrees with the independent judge", () => {
  it(`${runsFor(0.1)} pairs, seed ${seedFor(31)}`, () => {
    const verdicts = { same: 0, different: 0 };
    fc.assert(
      fc.property(pair, ({ change, a, b }) => {
        const x = parsed(a);
        const y = parsed(b);
        const oracle = sameMessage(x, y);
        const verifier = verifierSame(x, y);
        if (oracle !== verifier)
          throw new Error(
            `after "${change}" the verifier says ${verifier ? "one Message" : "two"}, the contract ${oracle ? "one" : "two"}:\n${a}\n${b}`,
          );
        verdicts[oracle ? "same" : "different"]++;
      }),
      { seed: seedFor(31), numRuns: runsFor(0.1) },
    );
    // Both verdicts were reached often: the pairs are neither all respellings nor all changes.
    if (runsFor(0.1) >= 100) expect(Math.min(verdicts.same, verdicts.different)).toBeGreaterThan(runsFor(0.1) / 10);
  });
});
