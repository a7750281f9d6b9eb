/**
 * What a stream showed, against the record (contract §9.28). A client that streamed was shown
 * more than the Task the stream folds into:
 *
 *   stream.replaced        an artifact version marked `lastChunk` and later replaced under its
 *                          artifactId by other content: the client saw content nothing commits to
 *                          (INCONCLUSIVE; the final version is bound by artifact.binding as usual)
 *   transcript.transition  each transition into or out of INPUT_REQUIRED/AUTH_REQUIRED the stream
 *                          showed is a transition entry of the transcript, in the order shown: a
 *                          pause the stream showed and the record leaves out FAILs (subject `stream`)
 *
 * A status message shown and later changed under its messageId is kept beside the first by the
 * fold, and FAILs `transcript.unambiguous` like any two observations of one messageId.
 */
import { listCapped } from "../../json/diff.js";
import { isJsonObject, member, type JsonObject, type JsonValue } from "../../json/value.js";
import { sha256HexOfText } from "../../util/bytes.js";
import { readPart, textOfParts, type A2APart } from "../../input/a2a.js";
import { TRANSITION_KIND } from "../../profile.js";
import { isInterruptedState, type ShownTransition, type StreamObservations } from "../../input/stream-observations.js";
import type { Check, State } from "../shared/types.js";
import type { CheckExtras } from "../shared/checks.js";

type Make = (
  id: "stream.replaced" | "transcript.transition",
  state: State,
  detail: string,
  extras?: CheckExtras,
) => Check;

const short = (s: string) => s.replace("TASK_STATE_", "");

export function streamShownChecks(
  shown: StreamObservations | undefined,
  transcript: JsonValue | undefined,
  make: Make,
): Check[] {
  if (!shown) return [];
  return [...replacedChecks(shown, make), ...shownTransitionChecks(shown.transitions, transcript, make)];
}

function replacedChecks(shown: StreamObservations, make: Make): Check[] {
  const checks = shown.replaced.map((r) => {
    const shownCommitment = commitmentOf(r.shown);
    return make(
      "stream.replaced",
      "INCONCLUSIVE",
      `stream.replaced: the stream showed it as final (lastChunk, event ${r.shownAt}) and replaced it with other content at event ${r.replacedAt}; the client saw content nothing commits to`,
      { subject: `artifact ${r.artifactId}`, ...(shownCommitment ? { values: { shownCommitment } } : {}) },
    );
  });
  if (shown.replacedLeftOut > 0) {
    checks.push(
      make(
        "stream.replaced",
        "INCONCLUSIVE",
        `stream.replaced: and ${shown.replacedLeftOut} more artifact version(s) shown as final and then replaced`,
      ),
    );
  }
  return checks;
}

/** The text commitment of the version shown, when its parts read as A2A parts. */
function commitmentOf(artifact: JsonObject): string | undefined {
  const parts = member(artifact, "parts");
  const read: A2APart[] = [];
  for (const [i, p] of (Array.isArray(parts) ? parts : []).entries()) {
    const r = readPart(p, `parts[${i}]`);
    if (!r.ok) return undefined;
    read.push(r.value);
  }
  return sha256HexOfText(textOfParts(read).text);
}

interface Recorded {
  readonly from: string;
  readonly to: string;
}

function recordedTransitions(transcript: JsonValue | undefined): Recorded[] {
  const out: Recorded[] = [];
  for (const e of Array.isArray(transcript) ? transcript : []) {
    if (!isJsonObject(e) || member(e, "kind") !== TRANSITION_KIND) continue;
    const from = member(e, "fromState");
    const to = member(e, "toState");
    if (typeof from === "string" && typeof to === "string") out.push({ from, to });
  }
  return out;
}

/** A pause is matched by the state it entered; a resumption by the state it left and the one it entered. */
function matches(r: Recorded, t: ShownTransition): boolean {
  return r.to === t.to && (isInterruptedState(t.to) || r.from === t.from);
}

/** The shown transitions, in order, as a subsequence of the recorded ones: one pass over each. */
function shownTransitionChecks(
  shown: readonly ShownTransition[],
  transcript: JsonValue | undefined,
  make: Make,
): Check[] {
  if (shown.length === 0) return [];
  const recorded = recordedTransitions(transcript);
  const missing: ShownTransition[] = [];
  let next = 0;
  for (const t of shown) {
    let k = next;
    while (k < recorded.length && !matches(recorded[k] as Recorded, t)) k++;
    if (k < recorded.length) next = k + 1;
    else missing.push(t);
  }
  const step = (t: ShownTransition) => `${short(t.from)} → ${short(t.to)} (event ${t.event})`;
  if (missing.length > 0) {
    return [
      make(
        "transcript.transition",
        "FAIL",
        `the stream showed ${listCapped(missing.map(step))}, which the transcript does not record${recorded.length === 0 ? " (it records no transition at all)" : " in that order"}: a pause or resumption the client was shown, left out of the record`,
        { subject: "stream" },
      ),
    ];
  }
  return [
    make(
      "transcript.transition",
      "PASS",
      `the ${shown.length} transition(s) into or out of a pause the stream showed (${listCapped(shown.map(step))}) are recorded in the transcript, in that order`,
      { subject: "stream" },
    ),
  ];
}
