import { describe } from "vitest";
import { runCases } from "./harness.js";
import { CRYPTO_CASES } from "./cases/crypto.js";

describe("adversarial: false PASSes on the log, witness and key claims", () => runCases(CRYPTO_CASES));
