/**
 * inspect never contradicts verify: on every shipped vector (with its trust file and without) and
 * on the published reference vector, each value a verify check compared is the value inspect
 * prints for that step, and every signature or comparison inspect reports agrees with the state
 * of the check that made it. The lifecycle too: each transition's and trace's recomputed value,
 * the resumption's ids, and each interim record — its own derivation, its citation, its prefix of
 * the terminal record, its place in the log, the paused Task it came with — against the state of
 * the interim check that judged it; a Task that has not ended is pending in both.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, externalPath, hasExternal } from "../helpers/external.js";
import { vectorExtra, vectorInput } from "../helpers/vector-input.js";
import { agreesWithVerify, type Case } from "./agreement.js";
import { changedLifecycleCases, lifecycleCases } from "./lifecycle-cases.js";

const VECTORS = join(REPO_ROOT, "vectors");
const NAMES = readdirSync(VECTORS)
  .filter((n) => existsSync(join(VECTORS, n, "expected.json")))
  .sort();

function cases(): Case[] {
  const out: Case[] = [];
  for (const name of NAMES) {
    const dir = join(VECTORS, name);
    out.push({ name, data: vectorInput(dir), trust: readFileSync(join(dir, "trust.json")) });
    out.push({ name: `${name} (no trust file)`, data: vectorInput(dir) });
    // With what its args.json adds (the first Task, the caller's time), as the golden reports are made.
    const given = vectorExtra(dir);
    if (Object.keys(given).length > 0)
      out.push({
        name: `${name} (with its args.json)`,
        data: vectorInput(dir),
        trust: readFileSync(join(dir, "trust.json")),
        ...given,
      });
  }
  // A data part whose integers a protobuf Struct widened (0 → 0.0, 1 → 1.0): verify judges the
  // digests and the checkpoint under a narrowing, and inspect must show that very narrowing.
  const dataPart = join(VECTORS, "valid-data-part");
  const widened = readFileSync(join(dataPart, "input.json"), "utf8")
    .replace(/"sequence": 0\b/g, '"sequence": 0.0')
    .replace('"mmr_size": 1', '"mmr_size": 1.0');
  out.push({
    name: "valid-data-part, its integers widened",
    data: widened,
    trust: readFileSync(join(dataPart, "trust.json")),
  });
  if (hasExternal("a2a-reference")) {
    const bytes = readFileSync(externalPath("a2a-reference", "positive_vector.json"));
    const trust = JSON.stringify(JSON.parse(bytes.toString("utf8")).trustConfig);
    out.push({ name: "a2a-reference/positive_vector.json", data: bytes, trust });
    const tamper = readFileSync(externalPath("a2a-reference", "tamper_negative_vector.json"));
    out.push({ name: "a2a-reference/tamper_negative_vector.json", data: tamper, trust });
  } else {
    process.stderr.write(
      `SKIPPED: inspect agrees with verify on the reference vector: ${externalPath("a2a-reference")} is absent\n`,
    );
  }
  return [...out, ...lifecycleCases()];
}

describe("inspect agrees with verify", () => {
  const compared = new Set<string>();
  for (const c of cases()) {
    it(c.name, () => expect(agreesWithVerify(c, compared)).not.toBe(0));
  }

  it("compared every step over the vectors: digests, envelope, inclusion, checkpoint, receipts, chain, cosignatures, commitments, the lifecycle", () => {
    for (const key of [
      "evidenceId.recompute recomputed",
      "coreManifestDigest.recompute recomputed",
      "capsuleId.recompute capsuleId",
      "capsule.agentOutputDigest expected",
      "envelope.verify kid",
      "inclusion.verify root",
      "checkpoint.signature digest",
      "witness.entryHash recomputed",
      "witness.receipt root",
      "witness.signature key",
      "chain.link priorRoot",
      "cosignature.note root",
      "cosignature.signature timestamp",
      "artifact.binding recomputed",
      "transcript.message recomputed",
      "evidenceId.recompute recomputedNarrowed",
      "narrowed",
      "transcript.transition recomputed",
      "transcript.transition FAIL",
      "transcript.transition INCONCLUSIVE",
      "transcript.resumption messageTaskId",
      "trace.digest recomputed",
      "interim.content PASS",
      "interim.content FAIL",
      "interim.signature PASS",
      "interim.signature FAIL",
      "interim.checkpoint PASS",
      "interim.checkpoint FAIL",
      "interim.inclusion PASS",
      "interim.log interimMmrSize",
      "interim.log PASS",
      "interim.log FAIL",
      "interim.cited PASS",
      "interim.cited NOT_CHECKED",
      "interim.cited FAIL",
      "interim.prefix PASS",
      "interim.prefix FAIL",
      "interim.observed PASS",
      "interim.observed FAIL",
      "pending",
    ]) {
      expect(compared.has(key), key).toBe(true);
    }
  });
});

/**
 * Lifecycle inputs changed one to three times each, by a fixed-seed walk (changedLifecycleCases):
 * whatever verify makes of the result, inspect must agree.
 */
describe("inspect agrees with verify on changed lifecycle inputs", () => {
  const RUNS = 300;
  const compared = new Set<string>();
  const mutated = changedLifecycleCases(RUNS, 20261001);
  it(`${mutated.length} changed inputs`, () => {
    expect(mutated.length).toBeGreaterThan(RUNS * 0.8);
    for (const c of mutated) {
      try {
        agreesWithVerify(c, compared);
      } catch (e) {
        throw new Error(`${c.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    // The walk reaches interim records, transitions and traces, and inputs verify refuses.
    for (const key of [
      "interim.prefix FAIL",
      "interim.content FAIL",
      "transcript.transition FAIL",
      "transcript.transition recomputed",
      "refused",
    ])
      expect(compared.has(key), key).toBe(true);
  });
});
