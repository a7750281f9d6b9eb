/** The pending list names real cases, each under the rule the case attacks. */
import { describe, expect, it } from "vitest";
import { PENDING_FIXES } from "./pending.js";
import { KNOWN_FINDINGS } from "../fuzz/known.js";
import { POLICY_CASES } from "./cases/policy.js";
import { TASK_WIRE_CASES } from "./cases/task-wire.js";
import { CALLER_CASES } from "./cases/caller.js";
import { CLAIM_CASES } from "./cases/claims.js";
import { WIDENING_CASES } from "./cases/widening.js";
import { OPERATOR_CASES } from "./cases/operators.js";
import { BOUNDED_CASES } from "./cases/bounded.js";
import { OUTPUT_CASES } from "./cases/output.js";
import { STRICT_INPUT_CASES } from "./cases/strict-input.js";
import { BINDING_WIRE_CASES } from "./cases/binding-wire.js";

const ALL = [
  ...POLICY_CASES,
  ...TASK_WIRE_CASES,
  ...CALLER_CASES,
  ...CLAIM_CASES,
  ...WIDENING_CASES,
  ...OPERATOR_CASES,
  ...BOUNDED_CASES,
  ...OUTPUT_CASES,
  ...STRICT_INPUT_CASES,
  ...BINDING_WIRE_CASES,
];

describe("adversarial cases", () => {
  it("have unique names", () => {
    const names = ALL.map((c) => c.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it("cover every rule of §6 and §9.10–§9.21", () => {
    const rules = new Set(ALL.map((c) => c.rule));
    expect(["§6", ...Array.from({ length: 12 }, (_, i) => `§9.${i + 10}`)].filter((r) => !rules.has(r))).toEqual([]);
  });

  it("pending fixes name existing cases, each under the case's own rule", () => {
    const byName = new Map(ALL.map((c) => [c.name, c.rule]));
    for (const [name, rule] of Object.entries(PENDING_FIXES)) {
      expect(byName.has(name), name).toBe(true);
      expect(rule.startsWith(`${byName.get(name)} `), `${name}: ${rule}`).toBe(true);
    }
  });

  it("tolerate fuzz findings only for pending cases", () => {
    expect(KNOWN_FINDINGS.map((k) => k.case).filter((name) => PENDING_FIXES[name] === undefined)).toEqual([]);
  });
});
