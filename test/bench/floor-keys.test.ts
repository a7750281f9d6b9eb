/**
 * The in-process floor must not charge work that warm in-process `verify()` never does. The floor
 * stands for the node:crypto work verifying a bundle cannot avoid; in one process, the trust
 * file's keys are imported once by `loadTrustConfig`, and the keys a bundle carries are the same
 * keys, found again in the verifier's key cache. A floor that imports every key for every bundle
 * is larger than the unavoidable work, and the ratio against it reads lower than the verifier's
 * real overhead. Calls are counted, never timed.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";
import { makeBenchInputs, runCounter } from "../helpers/bench-inputs.js";

const BUILT = existsSync(join(REPO_ROOT, "dist", "index.js"));
if (!BUILT) process.stderr.write("SKIPPED: floor key test: dist/ is not built (npm run build)\n");

const work = mkdtempSync(join(tmpdir(), "a2a-evidence-floor-keys-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Counts node:crypto calls of one warm verify() (the second bundle of a process) and of one floor. */
const COUNTER = `
import { createRequire, syncBuiltinESMExports } from "node:module";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [root, dir] = process.argv.slice(1);
const crypto = createRequire(import.meta.url)("node:crypto");
const n = { createPublicKey: 0, verify: 0 };
for (const k of Object.keys(n)) {
  const real = crypto[k];
  crypto[k] = function (...a) { n[k]++; return real.apply(this, a); };
}
syncBuiltinESMExports();
const lib = await import(pathToFileURL(root + "/dist/index.js").href);
const { prepareFloor } = await import(pathToFileURL(root + "/bench/floor.mjs").href);
const trust = lib.loadTrustConfig(lib.parseStrictJson(readFileSync(dir + "/trust.json")).value);
if (!trust.ok) throw new Error(trust.detail);
const floor = prepareFloor(JSON.parse(readFileSync(dir + "/plan.json", "utf8")));
const count = (f) => { const before = { ...n }; f(); return { keys: n.createPublicKey - before.createPublicKey, signatures: n.verify - before.verify }; };
const one = (b) => () => {
  const r = lib.verify({ inputs: [{ source: b, data: new Uint8Array(readFileSync(dir + "/bundles/" + b)) }], trust: trust.value });
  if (r.policy.exitCode !== 0) throw new Error(b + ": exit " + r.policy.exitCode);
};
count(one("b0000.json"));
floor.one();
process.stdout.write(JSON.stringify({ verify: count(one("b0001.json")), floor: count(floor.one) }));
`;

let counts: { verify: { keys: number; signatures: number }; floor: { keys: number; signatures: number } };

beforeAll(() => {
  if (!BUILT) return;
  makeBenchInputs(work, 2);
  counts = runCounter(COUNTER, work);
}, 300_000);

describe.skipIf(!BUILT)("the in-process floor against warm verify()", () => {
  it("checks as many signatures as verify() does", () => {
    expect(counts.floor.signatures).toBe(counts.verify.signatures);
  });
  it("imports no more keys per bundle than verify() does", () => {
    expect(counts.floor.keys).toBeLessThanOrEqual(counts.verify.keys);
  });
});
