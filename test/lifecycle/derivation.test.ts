/**
 * The independent derivation (derivation.ts, written from docs/profile.md alone) agrees with the
 * verifier on every lifecycle vector: each transition entry's verdict and recomputed commitment,
 * each interim citation's verdict, and which Tasks are pending. It also reproduces the profile's
 * worked values, so the document, the derivation and the producer say the same bytes.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { isFailedInput, type Check } from "../../src/report/model.js";
import { REPO_ROOT } from "../helpers/external.js";
import { LIFECYCLE_VECTORS } from "../../producer/vectors-lifecycle.js";
import {
  deriveCitations,
  deriveTransitions,
  isPending,
  preimage,
  terminalBundle,
  textCommitment,
} from "./derivation.js";

const VECTORS = join(REPO_ROOT, "vectors");
type Obj = Record<string, unknown>;

function read(name: string): { input: Obj; trust: Buffer; bytes: Buffer } {
  const bytes = readFileSync(join(VECTORS, name, "input.json"));
  return {
    input: JSON.parse(bytes.toString("utf8")) as Obj,
    trust: readFileSync(join(VECTORS, name, "trust.json")),
    bytes,
  };
}

function observedTask(input: Obj): Obj {
  return (input.finalTask ?? input.result ?? input.task ?? input) as Obj;
}

/** Every vector producer/vectors-lifecycle.ts defines: terminal states, pauses, interim records, traces, pending Tasks. */
const names = LIFECYCLE_VECTORS.map((v) => v.name);

describe("the derivation written from docs/profile.md", () => {
  it("covers the lifecycle vectors", () => {
    expect(names.length).toBeGreaterThanOrEqual(35);
    for (const n of names) expect(existsSync(join(VECTORS, n, "input.json")), n).toBe(true);
    for (const n of [
      "valid-lifecycle-input-required",
      "valid-lifecycle-multi-turn-interims",
      "pending-input-required-never-resumed",
      "neg-taskBinding-dropped-interim-citation",
    ]) {
      expect(names).toContain(n);
    }
  });

  it("reproduces the profile's worked values", () => {
    const doc = readFileSync(join(REPO_ROOT, "docs", "profile.md"), "utf8");
    const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
    const values: Array<[string, string]> = [
      [
        sha(
          preimage([
            "a2a-task-evidence/transition/v1",
            "9c404a25-77e6-4746-ac93-8f4ec9d3b189",
            "895e3603-bb2d-42e2-8fb1-afbbc22fcf82",
            2,
            "TASK_STATE_WORKING",
            "TASK_STATE_INPUT_REQUIRED",
            "7a66e626-220a-415c-9606-a89fa4563632",
            "9c404a25-77e6-4746-ac93-8f4ec9d3b189",
            "895e3603-bb2d-42e2-8fb1-afbbc22fcf82",
            textCommitment([{ text: "Which departure: 08:04 or 10:58?" }]),
          ]),
        ),
        "69e624111b566c20d8ad56925a3e844c7be9e2e603622432b548d9899d57c874",
      ],
      [
        sha(
          preimage([
            "a2a-task-evidence/transition/v1",
            "079efe1d-9e90-4004-865a-75dd0733d840",
            "f4050ea0-10bb-457e-9c04-9bc0adf23b94",
            3,
            "TASK_STATE_AUTH_REQUIRED",
            "TASK_STATE_WORKING",
            null,
            null,
            null,
            null,
          ]),
        ),
        "76a4fdc1e3b988198ea1b466309964a8ecbc3cf61ca8d96f548402a7ad347566",
      ],
      [
        sha(
          preimage([
            "a2a-task-evidence/transition/v1",
            "task-1",
            "ctx-1",
            7,
            "TASK_STATE_INPUT_REQUIRED",
            "TASK_STATE_WORKING",
            "réponse-1",
            "task-1",
            "ctx-1",
            textCommitment([{ text: "Le 12, s’il vous plaît." }]),
          ]),
        ),
        "a707ab87d7cfd239310d157163f1ede8f364a218fd7bb845d6a8a3fd350714bd",
      ],
    ];
    for (const [derived, documented] of values) {
      expect(derived).toBe(documented);
      expect(doc).toContain(documented);
    }
    expect(preimage(["r\u00e9ponse", 7, null])).toBe('["r\\u00e9ponse",7,null]');
    expect(doc).toContain('"r\\u00e9ponse-1"');
  });

  it.each(names.map((n) => [n] as const))("%s: the verifier and the derivation agree", (name) => {
    const { input, trust, bytes } = read(name);
    const task = observedTask(input);
    const report = verify({ inputs: [{ source: name, data: bytes }], trust });
    const result = report.inputs[0];
    if (!result) throw new Error("no report");
    if (isPending(task as never)) {
      expect(isFailedInput(result) && result.error.code).toBe("INPUT_EVIDENCE_PENDING");
      return;
    }
    if (isFailedInput(result)) throw new Error(`${name}: ${result.error.message}`);
    const payload = (terminalBundle(task as never) as Obj).taskEvidencePayload as Obj;
    const checks = result.properties.taskBinding.checks;
    const bySubject = (id: string) =>
      new Map(checks.filter((c) => c.id === id).map((c) => [c.subject, c] as [string | undefined, Check]));

    const transitions = bySubject("transcript.transition");
    const derived = deriveTransitions(payload as never, task as never);
    expect(derived.length).toBe(transitions.size);
    for (const d of derived) {
      const c = transitions.get(d.sequence < 0 ? "transcript" : `transcript[${d.sequence}]`);
      expect([d.sequence, c?.state]).toEqual([d.sequence, d.verdict]);
      if (d.recomputed !== undefined) expect(c?.values?.recomputed).toBe(d.recomputed);
    }

    const supplied = (Array.isArray(input.interimBundles) ? input.interimBundles : []) as never[];
    const citations = checks.filter((c) => c.id === "interim.cited");
    const derivedCitations = deriveCitations(payload as never, supplied);
    expect(derivedCitations.length).toBe(citations.length);
    for (const d of derivedCitations) {
      const c = citations.find((x) => x.subject === d.subject || x.subject?.startsWith(`interim record ${d.subject} `));
      expect([d.subject, c?.state]).toEqual([d.subject, d.verdict]);
    }
  });
});

describe("the derivation imports nothing from the verifier or the producer", () => {
  it("uses node:crypto only", () => {
    const text = readFileSync(join(REPO_ROOT, "test", "lifecycle", "derivation.ts"), "utf8");
    const imports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports).toEqual(["node:crypto"]);
  });
});
