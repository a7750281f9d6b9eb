/**
 * A run over several inputs compares what each shows of its logs (its sighting) before it reports
 * any, and it verifies each input as it takes that sighting, from one context: the checkpoints and
 * receipts the sighting reads are parsed, hashed and verified once, not again for the report.
 * Calls to node:crypto are counted, never timed: two inputs verified together cost what each costs
 * alone, but for the sighting's own read of the prior checkpoint (one digest each).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";
import { makeBenchInputs, runCounter } from "../helpers/bench-inputs.js";

const BUILT = existsSync(join(REPO_ROOT, "dist", "index.js"));
if (!BUILT) process.stderr.write("SKIPPED: work-once test: dist/ is not built (npm run build)\n");

const work = mkdtempSync(join(tmpdir(), "a2a-evidence-work-once-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const COUNTER = `
import { createRequire, syncBuiltinESMExports } from "node:module";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [root, dir] = process.argv.slice(1);
const crypto = createRequire(import.meta.url)("node:crypto");
const n = { verify: 0, hash: 0, createHash: 0 };
for (const k of Object.keys(n)) {
  const real = crypto[k];
  crypto[k] = function (...a) { n[k]++; return real.apply(this, a); };
}
syncBuiltinESMExports();
const lib = await import(pathToFileURL(root + "/dist/index.js").href);
const trust = lib.loadTrustConfig(lib.parseStrictJson(readFileSync(dir + "/trust.json")).value);
if (!trust.ok) throw new Error(trust.detail);
const count = (names) => {
  const before = { ...n };
  const r = lib.verify({
    inputs: names.map((b) => ({ source: b, data: new Uint8Array(readFileSync(dir + "/bundles/" + b)) })),
    trust: trust.value,
  });
  if (r.policy.exitCode !== 0) throw new Error(names + ": exit " + r.policy.exitCode);
  return { signatures: n.verify - before.verify, hashes: n.hash + n.createHash - before.hash - before.createHash };
};
count(["b0000.json"]);
const alone = [count(["b0001.json"]), count(["b0002.json"])];
const together = count(["b0003.json", "b0004.json"]);
process.stdout.write(JSON.stringify({ alone, together }));
`;

interface Counts {
  readonly signatures: number;
  readonly hashes: number;
}
let counts: { alone: Counts[]; together: Counts };

beforeAll(() => {
  if (!BUILT) return;
  makeBenchInputs(work, 5);
  counts = runCounter(COUNTER, work);
}, 300_000);

describe.skipIf(!BUILT)("a run over several inputs does each input's crypto once", () => {
  it("verifies as many signatures for two inputs together as for each alone", () => {
    const [a, b] = counts.alone as [Counts, Counts];
    expect(a.signatures).toBe(5);
    expect(b.signatures).toBe(5);
    expect(counts.together.signatures).toBe(a.signatures + b.signatures);
  });
  it("hashes no more than each alone, but for one digest of each prior checkpoint", () => {
    const [a, b] = counts.alone as [Counts, Counts];
    expect(a.hashes).toBeGreaterThan(90);
    expect(counts.together.hashes).toBeGreaterThanOrEqual(a.hashes + b.hashes);
    expect(counts.together.hashes).toBeLessThanOrEqual(a.hashes + b.hashes + 2);
  });
});
