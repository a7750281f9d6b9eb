import { describe } from "vitest";
import { runCases } from "./harness.js";
import { CLAIM_CASES } from "./cases/claims.js";

describe("adversarial: claims", () => runCases(CLAIM_CASES));
