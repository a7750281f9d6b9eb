import { describe } from "vitest";
import { runCases } from "./harness.js";
import { TASK_WIRE_CASES } from "./cases/task-wire.js";

describe("adversarial: the observed Task's wire (§9.12–§9.15)", () => runCases(TASK_WIRE_CASES));
