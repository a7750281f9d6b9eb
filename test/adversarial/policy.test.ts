import { describe } from "vitest";
import { runCases } from "./harness.js";
import { POLICY_CASES } from "./cases/policy.js";

describe("adversarial: the default policy (§6)", () => runCases(POLICY_CASES));
