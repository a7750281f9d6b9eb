/**
 * The trust-file validators are generated at build time from the schema (no schema is compiled
 * when the CLI runs): the committed file is exactly what the generator makes of the schema now.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GENERATED, generateValidators } from "../../scripts/generate-validators.js";

describe("generated trust-file validators", () => {
  it("match schemas/trust-config.schema.json (run `npm run generate` after changing the schema)", () => {
    expect(readFileSync(GENERATED, "utf8")).toBe(generateValidators());
  });
});
