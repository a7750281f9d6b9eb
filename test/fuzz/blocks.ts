/**
 * The fuzz blocks: a raw block mutates a seed as it stands, a semantic block re-signs after the
 * change. Each block is one `it` with its own seed and share of the runs; the blocks sit in
 * several files so the test runner spreads them over its workers.
 */
import fc from "fast-check";
import { afterAll, describe, it } from "vitest";
import { loadTrustConfig, type TrustConfig, type VerifiedInput } from "../../src/index.js";
import { SEEDS, open, close, exchangeOf, type Doc } from "./corpus.js";
import { runsFor, seedFor } from "./config.js";
import { coverageViolations, run } from "./invariants.js";
import { applyRaw, rawPlan, type RawPlan } from "./mutate-raw.js";
import { applySemantic, semanticPlan, type SemanticPlan } from "./mutate-semantic.js";
import { classifySemantic, semanticName } from "./semantic-coverage.js";
import { knownFinding, reportTolerated } from "./known.js";

/** No timing assertion on a block: the per-input cap (config.ts) is the bound. */
const NO_TOTAL_LIMIT = 3_600_000;

const trusts = new Map<string, TrustConfig>();
/** Each seed's trust file, loaded once (verify() accepts a loaded configuration as well as bytes). */
function trustOf(i: number): TrustConfig {
  const seed = SEEDS[i]!;
  let t = trusts.get(seed.name);
  if (!t) {
    const r = loadTrustConfig(seed.trust);
    if (!r.ok) throw new Error(`${seed.name}: ${r.detail}`);
    trusts.set(seed.name, (t = r.value));
  }
  return t;
}

const originals = new Map<string, { doc: Doc; report: VerifiedInput }>();
function original(i: number): { doc: Doc; report: VerifiedInput } {
  const seed = SEEDS[i]!;
  let o = originals.get(seed.name);
  if (!o) {
    const v = run(seed.input, trustOf(i));
    if (!v.input) throw new Error(`${seed.name} is not verified`);
    originals.set(seed.name, (o = { doc: open(seed.input), report: v.input }));
  }
  return o;
}

let count = 0;
const deterministicNow = () => ++count % 25 === 0;

export function rawProperty(plan: RawPlan): void {
  const seed = SEEDS[plan.seed]!;
  const o = original(plan.seed);
  const doc = open(seed.input);
  const m = applyRaw(doc, plan, seed.input);
  if (!m) return;
  const mutant = run(close(doc, m.site.root === "bundle"), trustOf(plan.seed), deterministicNow());
  const findings = coverageViolations(m, o.doc, doc, o.report, mutant);
  if (findings.length > 0)
    throw new Error(
      `${seed.name}: ${findings.map((f) => `${f.property} still ${f.detail.startsWith("INCONCLUSIVE") ? "not FAIL" : "PASS"} after ${f.mutation} (at ${f.where}): ${f.detail}`).join("; ")}`,
    );
}

export function semanticProperty(plan: SemanticPlan): void {
  const seed = SEEDS[plan.seed]!;
  const base = exchangeOf(seed);
  const o = original(plan.seed).report;
  const mutant = applySemantic(seed.name, base, plan);
  if (!mutant) return;
  const v = run(mutant.exchange.input, trustOf(plan.seed), deterministicNow());
  const m = mutant.mutation;
  if (
    m.op === "reorder" ||
    ((m.op === "replace" || m.op === "swap") &&
      m.before !== undefined &&
      m.after !== undefined &&
      JSON.stringify(m.before) === JSON.stringify(m.after))
  )
    return;
  const c = classifySemantic({ mutant, base, original: o });
  const where = semanticName(mutant).join(".");
  if (c.covers.size === 0 && c.benign === undefined)
    throw new Error(`semantic coverage map incomplete: no rule for ${where} (${m.op}): ${m.description}`);
  if (!v.input) return;
  const missed = [...c.covers].filter(
    (p) => o.properties[p].state === "PASS" && v.input!.properties[p].state === "PASS",
  );
  const unknown = missed.filter(
    (p) => !knownFinding({ property: p, where: `semantic:${where}`, mutation: m.description }, m),
  );
  if (unknown.length > 0)
    throw new Error(
      `${seed.name}: ${unknown.join(", ")} still PASS after the re-signed change ${mutant.target}: ${m.description} (at ${where})`,
    );
}

/** Generic changes anywhere (op 0–9), or A2A-shaped changes to the observed Task (op 10–11). */
export const GENERIC = rawPlan(SEEDS.length).filter((p) => p.op < 10);
export const A2A = rawPlan(SEEDS.length).filter((p) => p.op >= 10);

/** The seed whose receipts are ES256 costs ~50 ms to re-sign (deterministic P-256 in BigInt): drawn rarely. */
// Continuity cosignatures, and a log that holds a Task's interim records beside the terminal one,
// cannot be derived again (producer/mutate.ts rebuilds a log of one record): those seeds are raw-only.
const cheap = SEEDS.map((s, i) => [s, i] as const)
  .filter(
    ([s]) =>
      s.name !== "valid-rich" &&
      exchangeOf(s).bundle.continuityEvidence === undefined &&
      exchangeOf(s).interimBundles.length === 0,
  )
  .map(([, i]) => i);
const SEMANTIC_SEEDS = fc.oneof(
  { arbitrary: fc.constantFrom(...cheap), weight: 40 },
  { arbitrary: fc.constant(SEEDS.findIndex((s) => s.name === "valid-rich")), weight: 1 },
);
export const SEMANTIC = semanticPlan(SEMANTIC_SEEDS);

export function fuzzBlock<T>(
  title: string,
  block: number,
  share: number,
  arbitrary: fc.Arbitrary<T>,
  property: (t: T) => void,
): void {
  describe(`fuzz: ${title}`, () => {
    afterAll(() => reportTolerated(title));
    it(
      `${runsFor(share)} runs, seed ${seedFor(block)}`,
      () => fc.assert(fc.property(arbitrary, property), { seed: seedFor(block), numRuns: runsFor(share) }),
      NO_TOTAL_LIMIT,
    );
  });
}
