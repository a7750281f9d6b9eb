import { describe } from "vitest";
import { runCases } from "./harness.js";
import { BOUNDED_CASES } from "./cases/bounded.js";

describe("adversarial: bounded", () => runCases(BOUNDED_CASES));
