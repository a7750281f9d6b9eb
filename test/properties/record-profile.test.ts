/**
 * An unknown record profile or extension version is not guessed at (contract §9.6): every property
 * that depends on the profile's rules is NOT_CHECKED with the reason, across all twelve at once.
 */
import { describe, expect, it } from "vitest";
import { PROPERTY_NAMES, type PropertyName } from "../../src/report/model.js";
import { OTHER_PROFILE, statesOf, tampered, underProfile } from "./harness.js";

/** Extension-level properties, and PEAC receipts (not part of the profile): they do not apply the record profile's rules. */
const EXTENSION_LEVEL: readonly PropertyName[] = ["referenceConsistency", "negotiation", "peacReceipts"];
/** The properties whose checks are the record profile's rules. */
const PROFILE_RULES = PROPERTY_NAMES.filter((p) => !EXTENSION_LEVEL.includes(p));

describe("an unsupported record profile", () => {
  it("makes every profile-dependent property NOT_CHECKED with the reason; the rest still run", () => {
    const input = tampered(underProfile(OTHER_PROFILE));
    for (const p of PROFILE_RULES) {
      const result = input.properties[p];
      expect([p, result.state, result.detail, result.checks.length]).toEqual([
        p,
        "NOT_CHECKED",
        `unsupported record profile ${OTHER_PROFILE}`,
        1,
      ]);
    }
    // The claimed level cannot be established without the properties it needs; the negotiation
    // (extension level, not profile) still runs, and names the profile the evidence is under.
    expect(statesOf(input)).toMatchObject({ referenceConsistency: "INCONCLUSIVE", negotiation: "FAIL" });
    expect(input.properties.negotiation.checks.map((c) => c.id)).toContain("acceptance.terms");
    expect(PROFILE_RULES).toHaveLength(10);
  });

  it("an unsupported extension version is refused the same way", () => {
    const input = tampered({ bundle: (b) => void (b.extensionVersion = "2") });
    for (const p of PROFILE_RULES) {
      expect([p, input.properties[p].state, input.properties[p].detail]).toEqual([
        p,
        "NOT_CHECKED",
        'unsupported extension version "2"',
      ]);
    }
  });
});
