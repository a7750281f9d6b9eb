import { describe } from "vitest";
import { runCases } from "./harness.js";
import { COPIES_CASES } from "./cases/copies.js";

describe("adversarial: one messageId, one Message across the server's Tasks", () => runCases(COPIES_CASES));
