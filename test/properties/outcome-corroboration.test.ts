/**
 * outcomeCorroboration: corroboration.present through verify(). The v1 profile defines no
 * corroboration format, so a carried one is INCONCLUSIVE, never PASS.
 */
import { describe, expect, it } from "vitest";
import { fromPlain, type JsonObject } from "../../src/json/value.js";
import type { Tamper } from "../../producer/options.js";
import { OTHER_PROFILE, baseline, capture, check, checkStates, expectDecided, statesOf, tampered } from "./harness.js";

const CORROBORATION = fromPlain({ format: "settlement-receipt/v0", receipt: "c2V0dGxlZA==" });

describe("outcomeCorroboration", () => {
  it("nothing carried: NOT_PRESENT", () => {
    const input = check(capture());
    expectDecided(input, "outcomeCorroboration", {
      state: "NOT_PRESENT",
      check: "corroboration.present",
      detail: "no independent outcome corroboration is carried",
    });
    expect(checkStates(input, "outcomeCorroboration")).toEqual(["corroboration.present NOT_PRESENT"]);
  });

  it.each([
    ["on the bundle", { bundle: (b: JsonObject) => void (b.outcomeCorroboration = CORROBORATION) }],
    ["in the manifest", { manifest: (m: JsonObject) => void (m.outcomeCorroboration = CORROBORATION) }],
  ] as Array<[string, Tamper]>)("carried %s: INCONCLUSIVE, never PASS (no format to check)", (_, tamper) => {
    const input = tampered(tamper);
    expectDecided(input, "outcomeCorroboration", {
      state: "INCONCLUSIVE",
      check: "corroboration.present",
      detail: /defines no corroboration format this verifier can check/,
    });
    expect(statesOf(input)).toEqual(baseline({ outcomeCorroboration: "INCONCLUSIVE" }));
  });

  it("a null member is nothing carried: NOT_PRESENT", () => {
    const input = tampered({ bundle: (b) => void (b.outcomeCorroboration = null) });
    expectDecided(input, "outcomeCorroboration", { state: "NOT_PRESENT", check: "corroboration.present" });
  });

  // SUSPECTED VERIFIER BUG: the module never consults the record profile; under an unknown profile a carried corroboration is INCONCLUSIVE with a detail about "the record profile", not NOT_CHECKED (contract §9.6).
  it("carried under an unsupported record profile: NOT_CHECKED, not judged by v1's rules", () => {
    const input = tampered({
      bundle: (b) => {
        b.recordProfile = OTHER_PROFILE;
        b.outcomeCorroboration = CORROBORATION;
      },
    });
    expectDecided(input, "outcomeCorroboration", {
      state: "NOT_CHECKED",
      check: "corroboration.present",
      detail: `unsupported record profile ${OTHER_PROFILE}`,
    });
  });
});
