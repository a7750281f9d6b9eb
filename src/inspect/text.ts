/**
 * The explanation as text, for a person redoing the derivation by hand: one numbered section per
 * step, in the order each value commits to the one before. Every line goes through `printable`
 * as it is written, so no string from the input can reach a terminal raw; multi-line values (a
 * note, a signed message) are split into lines first, and each is indented under its label.
 */
import { type Explanation, type ExplanationHead, type PendingExplanation } from "./model.js";
import { Lines, absent } from "./text-lines.js";
import { receiptsLines, continuityLines, keysLines, commitmentsLines } from "./text-sections.js";
import { recordLines } from "./text-record.js";
import { interimLines, notesLines } from "./text-interim.js";

/** What was inspected, in what shape, and whether a trust file was given (`given` says so when it was). */
function headLines(l: Lines, e: ExplanationHead, given: string): void {
  l.add(0, `inspect ${e.source}`);
  l.add(
    2,
    "every derivation step verify takes, with the bytes and values it compares; no verdict, no policy (verify reports those)",
  );
  l.kv(2, "input shape", e.shape);
  l.kv(2, "trust file", e.options.trust ? given : "none (keys are matched against nothing)");
  l.add(0, "");
}

export function renderExplanationText(e: Explanation): string {
  const l = new Lines();
  headLines(l, e, `given (${e.keys.trust} shape)`);

  recordLines(l, e, [
    "1. Where the bundle was found",
    "2. evidenceId",
    "3. coreManifestDigest",
    "4. capsule_id, and the capsule's digests",
    "5. Producer Envelope (COSE_Sign1)",
    "6. Inclusion in the producer's log (MMR)",
    "7. Checkpoint signature",
  ]);
  l.add(0, "");

  l.add(0, "8. Transparency Service receipts");
  receiptsLines(l, e.receipts);
  l.add(0, "");

  l.add(0, "9. Continuity");
  continuityLines(l, e.continuity);
  l.add(0, "");

  l.add(0, "10. Keys and the trust file");
  keysLines(l, e.keys);
  l.add(0, "");

  l.add(0, "11. Commitments to the observed Task");
  commitmentsLines(l, e.commitments);
  l.add(0, "");

  l.add(0, "12. Interim records");
  if (!absent(l, e.interim)) interimLines(l, e.interim, true);
  notesLines(l, e.notes);
  return l.text();
}

/** A Task that has not ended: what it is, what verify says of it, and the interim records it carries. */
export function renderPendingText(e: PendingExplanation): string {
  const l = new Lines();
  headLines(l, e, "given");
  l.add(0, `The Task has not ended: ${e.pending.code}`);
  l.kv(2, "Task", `${e.pending.task}, in ${e.pending.state}`);
  l.kv(2, "evidenceStatus", e.pending.evidenceStatus ?? "absent");
  l.kv(2, "verify says", e.pending.detail);
  l.add(
    2,
    "there is no terminal record to derive yet: verify verifies nothing and exits 3; each interim record is derived below as verify will derive it with the terminal record",
  );
  l.add(0, "");
  l.add(0, "Interim records");
  interimLines(l, e.interim, false);
  notesLines(l, e.notes);
  return l.text();
}
