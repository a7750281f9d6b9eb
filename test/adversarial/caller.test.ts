import { describe } from "vitest";
import { runCases } from "./harness.js";
import { CALLER_CASES, STATUS_COPY_CASES } from "./cases/caller.js";

describe("adversarial: caller", () => runCases(CALLER_CASES));
describe("adversarial: every reference copy counts (status.metadata)", () => runCases(STATUS_COPY_CASES));
