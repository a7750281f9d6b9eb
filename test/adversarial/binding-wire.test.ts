import { describe } from "vitest";
import { runCases } from "./harness.js";
import { BINDING_WIRE_CASES } from "./cases/binding-wire.js";

describe("adversarial: the content binding against a thin observation (§3, §9.3, §9.4)", () =>
  runCases(BINDING_WIRE_CASES));
