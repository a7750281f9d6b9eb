import { describe } from "vitest";
import { runCases } from "./harness.js";
import { CALLER_CASES } from "./cases/caller.js";

describe("adversarial: caller", () => runCases(CALLER_CASES));
