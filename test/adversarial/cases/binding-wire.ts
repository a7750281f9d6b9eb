/**
 * The content binding against the Task it came with, attacked where the observation is thin: a
 * Part whose oneof holds a second, null member, and a Task that shows no history or no artifacts
 * member, where a payload that commits nothing must not fare better than one that commits
 * everything.
 */
import { isFailedInput, type Report, type VerifyRequest } from "../../../src/index.js";
import type { JsonObject } from "../../../src/json/value.js";
import { int, jsonText } from "../../../producer/json-text.js";
import type { Exchange } from "../../../producer/exchange.js";
import { attacked, honest, objectAt, requestOf, type AdversarialCase, type Expected } from "../harness.js";

/** The input was refused with this error code at this path (exit 2), not verified. */
const refusedAt =
  (code: string, path: string) =>
  (report: Report): void => {
    const first = report.inputs[0];
    if (!first || !isFailedInput(first) || first.error.code !== code || first.error.path !== path)
      throw new Error(`expected ${code} at ${path}: ${JSON.stringify(first)}`);
  };

/** A GetTask response changed by `observe`, for a record whose transcript keeps only the agent's reply. */
function requestDroppedAgainst(observe: (task: JsonObject) => void): VerifyRequest {
  return requestOf(
    attacked(
      {
        payload: (p) => void (p.transcript = [{ ...objectAt(p, "transcript", 1), sequence: int(0) }]),
        finalTask: observe,
      },
      { envelope: "jsonrpc" },
    ),
  );
}

/** A record committing no artifact, its terminal Task without an artifacts member (to place elsewhere than the bundle). */
function artifactLeftOut(): Exchange {
  return attacked({ payload: (p) => void (p.nonEvidenceArtifacts = []), finalTask: (t) => void delete t.artifacts });
}

const ARTIFACTS_UNOBSERVED: Expected = {
  exitCode: 3,
  property: "taskBinding",
  state: "INCONCLUSIVE",
  check: "artifacts.coverage",
  detail: /no artifacts member and no bundle in its metadata/,
};

export const BINDING_WIRE_CASES: readonly AdversarialCase[] = [
  // a2a-wire.md §1.1: Part.data is a google.protobuf.Value, where null is a value, not "unset".
  {
    name: "text part beside a null data value",
    rule: "§3",
    attack:
      'the agent\'s reply part carries "data": null beside its text: two oneof members, which a ProtoJSON parser refuses and a2a-js reads as text',
    request: () => requestOf(attacked({ finalTask: (t) => void (objectAt(t, "history", 1, "parts", 0).data = null) })),
    expected: { exitCode: 2, more: refusedAt("INPUT_A2A_MALFORMED", "finalTask.history[1].parts[0]") },
  },
  // §9.4: a Task always holds the Message that created it; no history shown is no history observed.
  {
    name: "transcript emptied against a Task that shows no history",
    rule: "§9.4",
    attack:
      "the producer commits no transcript entry and the GetTask response carries no history: nothing is compared, which must not read as bound",
    request: () =>
      requestOf(
        attacked(
          { payload: (p) => void (p.transcript = []), finalTask: (t) => void delete t.history },
          {
            envelope: "jsonrpc",
          },
        ),
      ),
    expected: {
      exitCode: 3,
      property: "taskBinding",
      state: "INCONCLUSIVE",
      check: "transcript.unobserved",
      detail: /the transcript no Message entry/,
    },
  },
  {
    name: "request left out of the transcript against a Task that shows only its status message",
    rule: "§9.4",
    attack:
      "the producer drops the client's request from the transcript; the GetTask response has no history, only the agent's reply in status.message",
    request: () =>
      requestDroppedAgainst((t) => {
        objectAt(t, "status").message = objectAt(t, "history", 1);
        delete t.history;
      }),
    expected: {
      exitCode: 3,
      property: "taskBinding",
      state: "INCONCLUSIVE",
      check: "transcript.unobserved",
      detail: /no history \(only status\.message\)/,
    },
  },
  {
    name: "request left out of the transcript against a history truncated to the reply",
    rule: "§9.4",
    attack:
      "the producer drops the client's request from the transcript; the GetTask response's history (historyLength 1) shows only the agent's reply",
    request: () => requestDroppedAgainst((t) => void (t.history = [objectAt(t, "history", 1)])),
    expected: {
      exitCode: 3,
      property: "taskBinding",
      state: "INCONCLUSIVE",
      check: "transcript.unobserved",
      detail: /opens with ROLE_AGENT message/,
    },
  },
  // §9.3 / a2a-wire.md §1.8: a Task without an artifacts member did not show its artifacts.
  {
    name: "artifact left out of a record whose Task shows no artifacts member",
    rule: "§9.3",
    attack:
      "the payload commits no artifact; the capture's terminal Task has no artifacts member (the bundle rides in the capture): the Task's artifacts were not observed",
    request: () => {
      const e = artifactLeftOut();
      return requestOf(e, {
        inputs: [{ source: "attack", data: { ...(e.input as JsonObject), evidenceBundle: e.bundle } }],
      });
    },
    expected: ARTIFACTS_UNOBSERVED,
  },
  {
    name: "artifact left out of a bare bundle whose --task shows no artifacts member",
    rule: "§9.3",
    attack: "a bare bundle committing no artifact, with a --task whose Task has no artifacts member",
    request: () => {
      const e = artifactLeftOut();
      return requestOf(e, { inputs: [{ source: "attack", data: e.bundle }], task: jsonText(e.finalTask) });
    },
    expected: ARTIFACTS_UNOBSERVED,
  },
  {
    name: "no artifacts member on a Task that carries its bundle inline",
    rule: "§9.3",
    attack:
      "none: a GetTask response with the bundle inline and no content artifact, whose empty artifacts list ProtoJSON omits",
    request: () => {
      const e = honest({ carrier: "inline", artifacts: [], envelope: "jsonrpc" });
      delete objectAt(e.input, "result").artifacts;
      return requestOf(e);
    },
    expected: { exitCode: 0, property: "taskBinding", state: "PASS", check: "artifacts.coverage" },
  },
];
