/**
 * Raw mutations of every valid vector and of the producer's captures, nothing re-signed: the
 * invariants of invariants.ts hold for every mutant.
 */
import fc from "fast-check";
import { afterAll, describe, it } from "vitest";
import { SEEDS, open, close, type Doc } from "./corpus.js";
import { runsFor, seedFor } from "./config.js";
import { coverageViolations, run, type Verified } from "./invariants.js";
import { applyRaw, rawPlan, type RawPlan } from "./mutate-raw.js";
import { reportTolerated } from "./known.js";
import type { VerifiedInput } from "../../src/index.js";

const originals = new Map<string, { doc: Doc; report: VerifiedInput }>();
function original(i: number): { doc: Doc; report: VerifiedInput } {
  const seed = SEEDS[i]!;
  let o = originals.get(seed.name);
  if (!o) {
    const v = run(seed.input, seed.trust);
    if (!v.input) throw new Error(`${seed.name} is not verified`);
    originals.set(seed.name, (o = { doc: open(seed.input), report: v.input }));
  }
  return o;
}

let count = 0;
function property(plan: RawPlan): void {
  const seed = SEEDS[plan.seed]!;
  const o = original(plan.seed);
  const doc = open(seed.input);
  const m = applyRaw(doc, plan);
  if (!m) return;
  const data = close(doc, m.site.root === "bundle");
  const mutant: Verified = run(data, seed.trust, ++count % 25 === 0);
  const findings = coverageViolations(m, o.doc, doc, o.report, mutant);
  if (findings.length > 0) throw new Error(`${seed.name}: ${findings.map((f) => `${f.property} still PASS after ${f.mutation} (at ${f.where}): ${f.detail}`).join("; ")}`);
}

/** Generic changes anywhere (op 0–9) or A2A-shaped changes to the Task (op 10–11). */
const generic = rawPlan(SEEDS.length).filter((p) => p.op < 10);
const a2a = rawPlan(SEEDS.length).filter((p) => p.op >= 10);

describe("fuzz: raw mutations", () => {
  afterAll(() => reportTolerated("fuzz: raw mutations"));
  it("anywhere in the input or the bundle (1)", () => fc.assert(fc.property(generic, property), { seed: seedFor(1), numRuns: runsFor(0.2) }));
  it("anywhere in the input or the bundle (2)", () => fc.assert(fc.property(generic, property), { seed: seedFor(2), numRuns: runsFor(0.2) }));
  it("A2A-shaped changes to the observed Task", () => fc.assert(fc.property(a2a, property), { seed: seedFor(3), numRuns: runsFor(0.2) }));
});
