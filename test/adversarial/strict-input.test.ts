import { describe } from "vitest";
import { runCases } from "./harness.js";
import { STRICT_INPUT_CASES } from "./cases/strict-input.js";

describe("adversarial: strict input", () => runCases(STRICT_INPUT_CASES));
