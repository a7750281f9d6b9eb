import { describe } from "vitest";
import { runCases } from "./harness.js";
import { REVIEW_CASES } from "./cases/review.js";

describe("adversarial: false PASSes on task binding, references, negotiation and the lifecycle", () =>
  runCases(REVIEW_CASES));
