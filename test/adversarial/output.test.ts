import { describe } from "vitest";
import { runCases } from "./harness.js";
import { OUTPUT_CASES } from "./cases/output.js";

describe("adversarial: output", () => runCases(OUTPUT_CASES));
