/**
 * §9.20: verification cost is linear in the input, hints are capped, and the JSON report of an
 * input is at most a small multiple of its size — whatever an attacker puts in a sub-megabyte input.
 */
import type { PropertyName } from "../../../src/index.js";
import { uuidFromLabel, type ArtifactSpec, type MessageSpec } from "../../../producer/a2a.js";
import { jsonText } from "../../../producer/json-text.js";
import { JsonNumber, type JsonObject, type JsonValue } from "../../../src/json/value.js";
import {
  arrayAt,
  copy,
  honest,
  objectAt,
  reportJson,
  requestOf,
  type AdversarialCase,
  type Expected,
} from "../harness.js";

const N = 1000;
/** The JSON report may be at most this many times the input. */
const REPORT_FACTOR = 8;
/** A capped diagnostic: about twenty items and "and N more". */
const CAPPED_DETAIL = 4096;

const sameNamed: ArtifactSpec[] = Array.from({ length: N }, (_, i) => ({
  artifactId: uuidFromLabel(`observed ${i}`),
  name: "statement",
  parts: [`line ${i}`],
}));
const longTranscript: MessageSpec[] = Array.from({ length: N }, (_, i) => ({
  messageId: uuidFromLabel(`turn ${i}`),
  role: i % 2 === 0 ? "ROLE_USER" : "ROLE_AGENT",
  parts: [`turn ${i}`],
}));

/** The report is a small multiple of the input, and the named check's detail is capped. */
function bounded(inputText: string, property: PropertyName, checkId: string): Expected["more"] {
  return (report, input) => {
    const size = reportJson(report).length;
    if (size > REPORT_FACTOR * inputText.length)
      throw new Error(`a ${inputText.length}-byte input gave a ${size}-byte report`);
    const longest = Math.max(
      ...(input?.properties[property].checks.filter((k) => k.id === checkId).map((k) => k.detail.length) ?? [0]),
    );
    if (longest > CAPPED_DETAIL)
      throw new Error(`${property} ${checkId} detail is ${longest} characters: hints are not capped`);
  };
}

function caseOf(
  name: string,
  attack: string,
  build: () => ReturnType<typeof honest>,
  expected: Omit<Expected, "more"> & { property: PropertyName; check: string },
): AdversarialCase {
  let e: ReturnType<typeof honest> | undefined;
  const exchange = () => (e ??= build());
  return {
    name,
    rule: "§9.20",
    attack,
    request: () => requestOf(exchange()),
    expected: {
      ...expected,
      more: (r, i) => bounded(jsonText(exchange().input), expected.property, expected.check)?.(r, i),
    },
  };
}

/**
 * A data-part bundle whose payload the producer sealed with eight integers beyond 2^53 and one long
 * string; the carrier prints the integers as the doubles they became, and the string is changed in
 * transit: 2^8 narrowings, each re-hashing the whole payload unless the search is bounded by bytes.
 */
function widenedLongPayload() {
  const e = honest({
    carrier: "data",
    tamper: {
      payload: (p) => {
        p.padding = Array.from({ length: 8 }, () => new JsonNumber("9007199254740993"));
        p.filler = "x".repeat(400_000);
      },
    },
  });
  const task = copy(e.finalTask);
  const artifacts = arrayAt(task, "artifacts");
  const bundle = objectAt(artifacts[artifacts.length - 1] as JsonValue, "parts", 0, "data");
  for (const payload of [
    objectAt(bundle, "taskEvidencePayload"),
    objectAt(bundle, "manifest", "taskEvidencePayload"),
  ]) {
    payload.padding = (payload.padding as JsonValue[]).map(() => new JsonNumber("9007199254740992.0"));
    payload.filler = `y${(payload.filler as string).slice(1)}`;
  }
  return { ...e, input: { ...copy(e.input), finalTask: task } as JsonObject };
}

export const BOUNDED_CASES: readonly AdversarialCase[] = [
  {
    name: "widened integers over a long payload",
    rule: "§9.20",
    attack: "an 800 kB data-part payload with eight widened unsafe integers and one long string changed in transit",
    request: () => requestOf(widenedLongPayload()),
    expected: {
      exitCode: [1, 3],
      property: "contentBinding",
      state: ["FAIL", "INCONCLUSIVE"],
      check: "evidenceId.recompute",
      // The same input without the eight integers verifies in well under 100 ms.
      maxMs: 2000,
      intact: ["producerSignature", "localInclusion", "checkpointSignature"],
    },
  },
  caseOf(
    "same-named commitments against same-named artifacts",
    `${N} observed Artifacts all named "statement"; the payload commits to ${N} other artifactIds under that name`,
    () =>
      honest({
        artifacts: sameNamed,
        tamper: {
          payload: (p) =>
            arrayAt(p, "nonEvidenceArtifacts").forEach(
              (a, i) => void (objectAt(a).artifactId = uuidFromLabel(`ghost ${i}`)),
            ),
        },
      }),
    { exitCode: 1, property: "taskBinding", state: "FAIL", check: "artifact.binding" },
  ),
  caseOf(
    "thousands of uncommitted artifacts",
    `${N} observed Artifacts; the payload commits to none`,
    () => honest({ artifacts: sameNamed, tamper: { payload: (p) => void (p.nonEvidenceArtifacts = []) } }),
    { exitCode: 1, property: "taskBinding", state: "FAIL", check: "artifacts.coverage" },
  ),
  caseOf(
    "thousands of transcript entries the history does not show",
    `a ${N}-entry transcript over a history cut to its first message`,
    () => honest({ transcript: longTranscript, tamper: { finalTask: (t) => void arrayAt(t, "history").splice(1) } }),
    { exitCode: 3, property: "taskBinding", state: "INCONCLUSIVE", check: "transcript.unobserved" },
  ),
];
