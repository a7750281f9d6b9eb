/**
 * §9.20: verification cost is linear in the input, hints are capped, and the JSON report of an
 * input is at most a small multiple of its size — whatever an attacker puts in a sub-megabyte input.
 */
import type { PropertyName } from "../../../src/index.js";
import { uuidFromLabel, type ArtifactSpec, type MessageSpec } from "../../../producer/a2a.js";
import { jsonText } from "../../../producer/json-text.js";
import { arrayAt, honest, objectAt, reportJson, requestOf, type AdversarialCase, type Expected } from "../harness.js";

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

export const BOUNDED_CASES: readonly AdversarialCase[] = [
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
