/** One record's derivation as text: where it was found, evidenceId, coreManifestDigest, capsule_id, envelope, inclusion, checkpoint. */
import { isAbsent, type RecordDerivation } from "./model.js";
import {
  type Lines,
  bytesText,
  shownBytes,
  equalText,
  failureLine,
  absent,
  narrowedLines,
  digest,
  cose,
  checkpoint,
  locationLines,
} from "./text-lines.js";

/** The capsule's identity: its rule, canonical bytes, recomputed and carried capsule_id. */
function capsuleLines(l: Lines, c: RecordDerivation["capsuleId"]): void {
  if (absent(l, c)) return;
  l.kv(2, "format_version", c.formatVersion ?? "absent");
  l.kv(2, "rule", c.rule);
  if (c.excluded.length > 0) l.kv(2, "excluded", c.excluded.join(", "));
  if (c.preimage) {
    l.kv(2, "canonical bytes", bytesText(c.preimage));
    shownBytes(l, 4, c.preimage);
  }
  failureLine(l, 2, c.failure);
  if (c.recomputed) l.kv(2, "recomputed", c.recomputed);
  l.kv(
    2,
    "carried capsule_id",
    c.carried === null ? "absent" : `${c.carried} ${c.recomputed ? equalText(c.equal) : ""}`.trimEnd(),
  );
  narrowedLines(l, c.narrowed);
}

/** The capsule's agent digests beside what they are recomputed from. */
function agentDigestLines(l: Lines, a: RecordDerivation["agentDigests"]): void {
  if (isAbsent(a)) return;
  l.kv(
    2,
    "agent_input_digest",
    a.agentInputDigest === null
      ? "absent"
      : `${a.agentInputDigest}${a.evidenceId ? ` (${a.inputEqual ? "equal" : "differs"}: the recomputed evidenceId is ${a.evidenceId})` : ""}`,
  );
  if (a.outputPreimage) {
    l.kv(2, "agent output", `JCS of ${a.outputPreimage.text ?? ""}: ${bytesText(a.outputPreimage)}`);
  }
  failureLine(l, 2, a.failure);
  const out = (v: string | null) =>
    v === null ? "absent" : `${v} ${a.outputRecomputed ? equalText(v === a.outputRecomputed) : ""}`.trimEnd();
  l.kv(2, "agent_output_digest", out(a.agentOutputDigest));
  l.kv(2, "effect.response_digest", out(a.responseDigest));
}

/** The Producer Envelope decoded, and the Ed25519 check over its Sig_structure. */
function envelopeLines(l: Lines, pe: RecordDerivation["producerEnvelope"]): void {
  if (absent(l, pe)) return;
  l.kv(2, "at", pe.at);
  if (pe.envelope) {
    l.kv(2, "envelope", bytesText(pe.envelope));
    shownBytes(l, 4, pe.envelope);
  }
  if (pe.cose) {
    l.add(2, "decoded: tag 18, [protected, unprotected, payload, signature]");
    cose(l, 4, pe.cose);
  }
  l.kv(
    2,
    "checked against",
    pe.signedId === null ? "no capsule_id" : `capsule_id ${pe.signedId} (its raw 32 bytes must be the payload)`,
  );
  if (pe.sigStructure) {
    l.kv(2, "Sig_structure", `["Signature1", protected bytes, h'', payload]: ${bytesText(pe.sigStructure)}`);
    shownBytes(l, 4, pe.sigStructure);
  }
  l.kv(2, "Ed25519", `under the kid ${pe.kid ?? "(none)"}: ${pe.result}`);
  failureLine(l, 2, pe.failure, pe.result === "does not verify");
}

/** The leaf hash folded up to its peak, the peaks bagged, and the root beside the checkpoint's. */
function inclusionLines(l: Lines, inc: RecordDerivation["inclusion"]): void {
  if (absent(l, inc)) return;
  l.kv(2, "proof", inc.at);
  l.kv(2, "leaf body", inc.leafBody === null ? "none" : `the carried capsule_id as raw 32 bytes: ${inc.leafBody}`);
  if (inc.leafHash) l.kv(2, "leaf hash", `SHA-256(0x00 ‖ body) = ${inc.leafHash}`);
  if (inc.leafIndex !== null) {
    l.kv(2, "leaf", `index ${inc.leafIndex}, position ${inc.leafPosition ?? "?"}, in an MMR of ${inc.mmrSize} node(s)`);
  }
  if (inc.mountain) {
    l.kv(
      2,
      "its mountain",
      `${inc.mountain.index + 1} of ${inc.mountain.of}: height ${inc.mountain.height}, peak at position ${inc.mountain.peak}`,
    );
  }
  if (inc.root === null) failureLine(l, 2, inc.failure);
  if (inc.leafHash) {
    l.add(
      2,
      inc.folds.length === 0
        ? "folds to the peak: none (the leaf is its mountain's peak)"
        : "folds to the peak: SHA-256(be64(position + 1) ‖ left ‖ right)",
    );
    for (const f of inc.folds)
      l.add(4, `position ${f.position}: sibling ${f.sibling} on the ${f.siblingSide} -> ${f.result}`);
    l.add(2, `peaks, left to right (the leaf's is #${(inc.peakIndex ?? 0) + 1}):`);
    inc.peaks.forEach((p, i) => l.add(4, `#${i + 1} ${p}`));
    if (inc.bagging.length === 0) l.add(2, "bagging: one peak, the root is that peak");
    else l.add(2, "bagging, from the right: SHA-256(right ‖ left)");
    for (const b of inc.bagging) l.add(4, `with #${b.index + 1}: SHA-256(${b.right} ‖ ${b.left}) -> ${b.result}`);
  }
  if (inc.root) l.kv(2, "bagged root", inc.root);
  l.kv(2, "checkpoint root", `${inc.checkpointRoot ?? "none"}${inc.root ? ` ${equalText(inc.equal)}` : ""}`);
  if (inc.root !== null) failureLine(l, 2, inc.failure, true);
}

/** The titles of a record's seven sections, where it was found to its checkpoint. */
export type RecordTitles = readonly [string, string, string, string, string, string, string];

/** One record's derivation, where it was found to its checkpoint, under the section titles given. */
export function recordLines(l: Lines, e: RecordDerivation, titles: RecordTitles): void {
  const [locationTitle, evidenceTitle, manifestTitle, capsuleTitle, envelopeTitle, inclusionTitle, checkpointTitle] =
    titles;
  l.add(0, locationTitle);
  locationLines(l, e.location);
  l.add(0, "");
  digest(l, evidenceTitle, e.evidenceId);
  l.add(0, "");
  digest(l, manifestTitle, e.coreManifestDigest);
  l.add(0, "");

  l.add(0, capsuleTitle);
  capsuleLines(l, e.capsuleId);
  agentDigestLines(l, e.agentDigests);
  l.add(0, "");

  l.add(0, envelopeTitle);
  envelopeLines(l, e.producerEnvelope);
  l.add(0, "");

  l.add(0, inclusionTitle);
  inclusionLines(l, e.inclusion);
  l.add(0, "");

  l.add(0, checkpointTitle);
  if (!absent(l, e.checkpoint)) checkpoint(l, 2, e.checkpoint);
}
