/**
 * bench/reading.mjs, shown beside each marginal goal: the floor with every input read and parsed
 * natively. It must do the floor's work and the reading for every input it is given, and refuse an
 * input that carries no bundle (a cheaper pass would make the line read low).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

const work = mkdtempSync(join(tmpdir(), "a2a-evidence-reading-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const plan = join(work, "plan.json");
writeFileSync(
  plan,
  JSON.stringify({
    sha256: [{ what: "a digest", bytes: 40, count: 2 }],
    signatures: [
      { what: "an envelope", alg: "Ed25519", bytes: 125 },
      { what: "a receipt", alg: "ES256", bytes: 55 },
    ],
    keys: [
      { what: "producer key", form: "ed25519-raw" },
      { what: "service key", form: "spki-pem" },
    ],
  }),
);

/** A GetTask response whose second artifact carries `bundle` as its base64 raw part. */
function input(name: string, bundle: unknown): string {
  const file = join(work, name);
  const raw = bundle === undefined ? [] : [{ raw: Buffer.from(JSON.stringify(bundle)).toString("base64") }];
  writeFileSync(
    file,
    JSON.stringify({
      id: 1,
      jsonrpc: "2.0",
      result: { artifacts: [{ parts: [{ text: "report" }] }, { parts: raw }] },
    }),
  );
  return file;
}

const run = (...files: string[]) =>
  spawnSync(process.execPath, [join(REPO_ROOT, "bench", "reading.mjs"), plan, ...files], { encoding: "utf8" });

describe("bench/reading.mjs", () => {
  it("reads each input, parses the bundle it carries, and does the floor", () => {
    const a = input("a.json", { manifest: {}, payload: {}, signature: "x" });
    const b = input("b.json", { manifest: {} });
    const r = run(a, b);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    // One number: the result, printed so that no work is dead.
    expect(r.stdout).toMatch(/^\d+\n$/);
  });

  it("exits 1, naming the file, for an input that carries no bundle", () => {
    const good = input("good.json", { manifest: {} });
    const bare = input("bare.json", undefined);
    const r = run(good, bare);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${bare}: no artifact part carries a bundle (raw)`);
    expect(r.stdout).toBe("");
  });

  it("exits 1 for an input that is not JSON", () => {
    const broken = join(work, "broken.json");
    writeFileSync(broken, "{");
    const r = run(broken);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
  });
});
