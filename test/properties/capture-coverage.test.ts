/**
 * captureCoverage: capturePolicy.copiesAgree and capturePolicy.coverage through verify(). One
 * record can never establish coverage, so the property is never PASS.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/json/value.js";
import type { Tamper } from "../../producer/options.js";
import { OTHER_PROFILE, baseline, capture, check, checkStates, expectDecided, statesOf, tampered } from "./harness.js";

const POLICY = "a2a-server-boundary-v1";
const ONE_RECORD = "a single record cannot establish that every eligible interaction under that policy was captured";

describe("captureCoverage FAIL paths", () => {
  it.each([
    [
      "the manifest declares another policy",
      { manifest: (m: JsonObject) => void (m.capturePolicyId = "sampled-v2") },
      `payload capturePolicyId "${POLICY}" != manifest capturePolicyId "sampled-v2"`,
    ],
    [
      "the payload was sealed under another policy",
      { payload: (p: JsonObject) => void (p.capturePolicyId = "sampled-v2") },
      `payload capturePolicyId "sampled-v2" != manifest capturePolicyId "${POLICY}"`,
    ],
    [
      "the payload declares null, the manifest a policy",
      { payload: (p: JsonObject) => void (p.capturePolicyId = null) },
      `payload capturePolicyId null != manifest capturePolicyId "${POLICY}"`,
    ],
  ] as Array<[string, Tamper, string]>)("%s: the copies disagree", (_, tamper, detail) => {
    const input = tampered(tamper);
    expectDecided(input, "captureCoverage", { state: "FAIL", check: "capturePolicy.copiesAgree", detail });
    expect(statesOf(input)).toEqual(baseline({ captureCoverage: "FAIL" }));
  });
});

describe("captureCoverage INCONCLUSIVE, NOT_PRESENT and NOT_CHECKED (never PASS)", () => {
  it("a declared policy, both copies agreeing: INCONCLUSIVE", () => {
    const input = check(capture());
    expectDecided(input, "captureCoverage", {
      state: "INCONCLUSIVE",
      check: "capturePolicy.coverage",
      detail: `payload declares capturePolicyId=${POLICY}; ${ONE_RECORD}`,
    });
    expect(checkStates(input, "captureCoverage")).toEqual([
      "capturePolicy.copiesAgree PASS",
      "capturePolicy.coverage INCONCLUSIVE",
    ]);
  });

  it.each([
    ["only the payload declares it", { manifest: (m: JsonObject) => void delete m.capturePolicyId }],
    ["only the manifest declares it", { payload: (p: JsonObject) => void delete p.capturePolicyId }],
    ["only the payload declares it and there is no manifest", { bundle: (b: JsonObject) => void delete b.manifest }],
  ] as Array<[string, Tamper]>)("%s: INCONCLUSIVE, nothing to compare", (_, tamper) => {
    const input = tampered(tamper);
    expectDecided(input, "captureCoverage", {
      state: "INCONCLUSIVE",
      check: "capturePolicy.coverage",
      detail: new RegExp(`capturePolicyId=${POLICY}; `),
    });
    expect(checkStates(input, "captureCoverage")).toEqual(["capturePolicy.coverage INCONCLUSIVE"]);
  });

  it.each([
    [
      "no policy declared anywhere",
      {
        payload: (p: JsonObject) => void delete p.capturePolicyId,
        manifest: (m: JsonObject) => void delete m.capturePolicyId,
      },
    ],
    [
      "a null policy in the payload and none in the manifest",
      {
        payload: (p: JsonObject) => void (p.capturePolicyId = null),
        manifest: (m: JsonObject) => void delete m.capturePolicyId,
      },
    ],
  ] as Array<[string, Tamper]>)("%s: NOT_PRESENT", (_, tamper) => {
    const input = tampered(tamper);
    expectDecided(input, "captureCoverage", {
      state: "NOT_PRESENT",
      check: "capturePolicy.coverage",
      detail: "no capture policy is declared",
    });
    expect(statesOf(input)).toEqual(baseline({ captureCoverage: "NOT_PRESENT" }));
  });

  it("an unsupported record profile: NOT_CHECKED", () => {
    const input = tampered({ bundle: (b) => void (b.recordProfile = OTHER_PROFILE) });
    expectDecided(input, "captureCoverage", { state: "NOT_CHECKED", check: "capturePolicy.coverage" });
  });
});
