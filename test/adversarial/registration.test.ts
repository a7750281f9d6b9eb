import { describe } from "vitest";
import { runCases } from "./harness.js";
import { REGISTRATION_CASES } from "./cases/registration.js";

describe("adversarial: Transparency Service registration", () => runCases(REGISTRATION_CASES));
