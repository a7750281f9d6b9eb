import { describe } from "vitest";
import { runCases } from "./harness.js";
import { OPERATOR_CASES } from "./cases/operators.js";

describe("adversarial: operators", () => runCases(OPERATOR_CASES));
