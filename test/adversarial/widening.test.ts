import { describe } from "vitest";
import { runCases } from "./harness.js";
import { WIDENING_CASES } from "./cases/widening.js";

describe("adversarial: widening", () => runCases(WIDENING_CASES));
