import { describe } from "vitest";
import { runCases } from "./harness.js";
import { REQUEST_CASES } from "./cases/request.js";

describe("adversarial: the caller's own request", () => runCases(REQUEST_CASES));
