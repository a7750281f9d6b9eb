/**
 * A key window that makes no sense is a trust-file error: exit 2, naming the trust file and the
 * JSON path at fault (contract §5, §5.1).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const DIR = join(REPO_ROOT, "vectors", "valid-keys-revoked-witnessed-before");
const trust = JSON.parse(readFileSync(join(DIR, "trust.json"), "utf8"));

function withProducerKey(key: unknown): string {
  const t = structuredClone(trust);
  t.producers[0].keys[0] = key;
  return tempFile("trust.json", JSON.stringify(t));
}

describe("verify with a trust file whose window makes no sense", () => {
  const producerKey = trust.producers[0].keys[0].key as string;

  it("validUntil before validFrom: exit 2 at its path", async () => {
    const file = withProducerKey({
      key: producerKey,
      validFrom: "2026-10-02T00:00:00Z",
      validUntil: "2026-10-01T00:00:00Z",
    });
    const r = await runCli(["verify", "--trust", file, join(DIR, "input.json")]);
    expect(r.code).toBe(2);
    const said = `${r.stdout}${r.stderr}`;
    expect(said).toContain(`trust file ${file}: TRUST_SCHEMA: validUntil is before validFrom`);
    expect(said).toContain("producers[0].keys[0].validUntil");
    expect(said).not.toMatch(/\n\s+at /);
  });

  it("a malformed time: exit 2 at its path", async () => {
    const file = withProducerKey({ key: producerKey, revokedAt: "2026-10-01" });
    const r = await runCli(["verify", "--format", "json", "--trust", file, join(DIR, "input.json")]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: "TRUST_SCHEMA",
      path: "producers[0].keys[0].revokedAt",
      source: "trust",
    });
  });

  it("the shipped vector verifies under its window: exit 0", async () => {
    const r = await runCli(["verify", "--trust", join(DIR, "trust.json"), join(DIR, "input.json")]);
    expect(r.code).toBe(0);
  });
});
