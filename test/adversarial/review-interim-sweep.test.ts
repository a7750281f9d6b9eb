/**
 * Every member of an interim record's payload, and of the terminal payload's citations, changed
 * one at a time and sealed again — so every digest, signature and proof is valid and only the
 * change remains. The one-record fuzz mutator cannot re-derive a log that holds interim records;
 * the producer seals them here instead. A change must leave the input not PASSing (exit 0 would be
 * a false PASS), except the members the profile says nothing compares (listed, with the reason).
 */
import { describe, expect, it } from "vitest";
import { verify } from "../../src/index.js";
import { isFailedInput, type VerifiedInput } from "../../src/report/model.js";
import { JsonNumber, isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { buildExchange, buildPausedExchange } from "../../producer/exchange.js";
import { jsonText } from "../../producer/json-text.js";
import { utf8 } from "../../src/util/bytes.js";
import type { Tamper, TranscriptSpec } from "../../producer/options.js";
import { TWO_PAUSES } from "./cases/review.js";

/** Members no comparison covers, by design (docs/profile.md §3): what an interim record may change freely. */
const NOT_COMPARED: Readonly<Record<string, string>> = {
  sealTime: "timestamps are reported, never trusted as proof of time",
};

type Path = ReadonlyArray<string | number>;

/** Every leaf of a JSON value, and every member and element (for removal), as paths. */
function places(v: JsonValue, at: Path = []): { leaves: Path[]; members: Path[] } {
  const out = { leaves: [] as Path[], members: [] as Path[] };
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.members.push([...at, i]);
      const inner = places(x, [...at, i]);
      out.leaves.push(...inner.leaves);
      out.members.push(...inner.members);
    });
  } else if (isJsonObject(v)) {
    for (const k of Object.keys(v)) {
      out.members.push([...at, k]);
      const inner = places(v[k] as JsonValue, [...at, k]);
      out.leaves.push(...inner.leaves);
      out.members.push(...inner.members);
    }
  } else out.leaves.push(at);
  return out;
}

function parentOf(root: JsonValue, path: Path): JsonObject | JsonValue[] {
  let cur: JsonValue = root;
  for (const seg of path.slice(0, -1)) cur = (cur as Record<string | number, JsonValue>)[seg] as JsonValue;
  return cur as JsonObject | JsonValue[];
}

/** Another value of the same kind: a string with one more character, the next integer, a string for null. */
function other(v: JsonValue): JsonValue {
  if (typeof v === "string")
    return /^[0-9a-f]{64}$/.test(v) ? `${v.slice(0, 63)}${v[63] === "0" ? "1" : "0"}` : `${v}x`;
  if (v instanceof JsonNumber) return new JsonNumber(String(Number(v.lexeme) + 1));
  if (typeof v === "boolean") return !v;
  return "x";
}

function setAt(root: JsonObject, path: Path, value: JsonValue): void {
  (parentOf(root, path) as Record<string | number, JsonValue>)[path[path.length - 1] as string | number] = value;
}

function removeAt(root: JsonObject, path: Path): void {
  const parent = parentOf(root, path);
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete (parent as Record<string, JsonValue>)[last as string];
}

/**
 * A record that leaves out an effect says the effect came after its pause; the terminal record and
 * later records agree with that story. Only the paused Task the caller saw can contradict it, so
 * such a change is judged with that Task (`--interim`): interim.observed.
 */
const EFFECT_LEFT_OUT = (p: Path, removed: boolean) => removed && p.length === 2 && p[0] === "nonEvidenceArtifacts";

function verified(tamper: Tamper, pausedAt?: number): { input: VerifiedInput; exitCode: number } {
  const e = buildExchange({ ...TWO_PAUSES, tamper });
  const transcript = TWO_PAUSES.transcript as TranscriptSpec[];
  const interim =
    pausedAt === undefined
      ? []
      : [
          utf8(
            jsonText(
              buildPausedExchange({
                ...TWO_PAUSES,
                envelope: "paused",
                transcript: transcript.slice(0, pausedAt + 1),
                interim: (TWO_PAUSES.interim ?? []).filter((x) => x.at <= pausedAt),
                tamper,
              }).pausedTask,
            ),
          ),
        ];
  const report = verify({ inputs: [{ source: "sweep", data: e.input }], trust: e.trust, interim });
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`not verified: ${JSON.stringify(input)}`);
  return { input, exitCode: report.policy.exitCode };
}

const honest = buildExchange(TWO_PAUSES);

describe("interim records, changed member by member and sealed again", () => {
  it("the honest two-pause capture passes", () => {
    const { input, exitCode } = verified({});
    expect(exitCode).toBe(0);
    expect(input.properties.taskBinding.state).toBe("PASS");
  });

  for (const k of [0, 1]) {
    const payload = (honest.interimBundles[k] as JsonObject).taskEvidencePayload as JsonObject;
    const { leaves, members } = places(payload);
    const name = (p: Path) => p.join(".");
    const changes = [
      ...leaves.map((p) => ({
        what: `interim[${k}] ${name(p)} changed`,
        path: p,
        removed: false,
        apply: (x: JsonObject) => setAt(x, p, other(parentOfValue(x, p))),
      })),
      ...members.map((p) => ({
        what: `interim[${k}] ${name(p)} removed`,
        path: p,
        removed: true,
        apply: (x: JsonObject) => removeAt(x, p),
      })),
    ];
    it.each(changes.map((c) => [c.what, c] as const))("%s: not a PASS", (_, c) => {
      const top = String(c.path[0]);
      const tamper: Tamper = { interimPayload: (p, i) => void (i === k && c.apply(p)) };
      if (EFFECT_LEFT_OUT(c.path, c.removed)) {
        const at = TWO_PAUSES.interim?.[k]?.at ?? 0;
        const withPaused = verified(tamper, at);
        expect(
          withPaused.input.properties.taskBinding.checks.find((x) => x.id === "interim.observed" && x.state === "FAIL")
            ?.detail,
        ).toMatch(/which its interim record does not record/);
        return;
      }
      const { input, exitCode } = verified(tamper);
      if (NOT_COMPARED[top] !== undefined) {
        // Listed as free: the change must not break anything else either.
        expect(exitCode, NOT_COMPARED[top]).toBe(0);
        return;
      }
      const states = Object.fromEntries(Object.entries(input.properties).map(([p, r]) => [p, r.state]));
      expect(exitCode, `exit 0 for ${c.what}: ${JSON.stringify(states)}`).not.toBe(0);
      // The verdict is the rule's: the interim record's own checks (or the terminal record's) say why.
      expect(
        ["taskBinding", "contentBinding"].some((p) => states[p] === "FAIL"),
        JSON.stringify(states),
      ).toBe(true);
    });
  }

  const citations = ((honest.bundle.taskEvidencePayload as JsonObject).interimEvidence as JsonValue[]).length;
  for (let i = 0; i < citations; i++) {
    for (const member of ["evidenceId", "sequence"]) {
      it(`the terminal citation interimEvidence[${i}].${member} changed: not a PASS`, () => {
        const { exitCode, input } = verified({
          payload: (p) => {
            const c = (p.interimEvidence as JsonObject[])[i] as JsonObject;
            c[member] = other(c[member] as JsonValue);
          },
        });
        expect(exitCode).toBe(1);
        expect(input.properties.taskBinding.state).toBe("FAIL");
      });
    }
    it(`the terminal citation interimEvidence[${i}] removed: a dropped citation`, () => {
      const { input } = verified({ payload: (p) => void (p.interimEvidence as JsonValue[]).splice(i, 1) });
      expect(
        input.properties.taskBinding.checks.some(
          (c) => c.id === "interim.cited" && c.state === "FAIL" && /dropped citation/.test(c.detail),
        ),
      ).toBe(true);
    });
  }
});

function parentOfValue(root: JsonObject, path: Path): JsonValue {
  return (parentOf(root, path) as Record<string | number, JsonValue>)[
    path[path.length - 1] as string | number
  ] as JsonValue;
}
