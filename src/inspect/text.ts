/**
 * The explanation as text, for a person redoing the derivation by hand: one numbered section per
 * step, in the order each value commits to the one before. Every line goes through `printable`
 * as it is written, so no string from the input can reach a terminal raw; multi-line values (a
 * note, a signed message) are split into lines first, and each is indented under its label.
 */
import type { PartRow } from "../properties/shared/parts.js";
import { printable } from "../util/printable.js";
import {
  isAbsent,
  type Absent,
  type Bytes,
  type CheckpointSection,
  type Comparison,
  type CoseSection,
  type DigestSection,
  type Explanation,
  type InterimRecordSection,
  type InterimSection,
  type Listed,
  type LocationSection,
  type LogRelation,
  type Narrowed,
  type ObservedText,
  type PausedTaskSection,
  type PendingExplanation,
  type PrefixSection,
  type RecordDerivation,
  type StepFailure,
  type TraceRow,
  type TranscriptRow,
  type TransitionRow,
} from "./model.js";

const LABEL = 20;

class Lines {
  readonly out: string[] = [];
  add(indent: number, s: string): void {
    this.out.push(`${" ".repeat(indent)}${s}`);
  }
  kv(indent: number, label: string, value: string): void {
    this.add(indent, `${`${label}:`.padEnd(LABEL)} ${value}`);
  }
  /** A value that may span lines (note text, signed messages): each line quoted under the label. */
  block(indent: number, label: string, value: string): void {
    this.add(indent, `${label}:`);
    const parts = value.split("\n");
    if (parts[parts.length - 1] === "") parts.pop();
    for (const p of parts) this.add(indent + 2, `| ${p}`);
  }
  more(indent: number, l: Listed<unknown>, what: string): void {
    if (l.omitted > 0) this.add(indent, `… and ${l.omitted} more ${what} (--all lists every one)`);
  }
  /** Another section's lines, indented under this one (made printable once, by `text`). */
  nest(indent: number, child: Lines): void {
    for (const line of child.out) this.out.push(line === "" ? "" : `${" ".repeat(indent)}${line}`);
  }
  text(): string {
    return `${this.out.map(printable).join("\n")}\n`;
  }
}

function bytesText(b: Bytes): string {
  return `${b.length} bytes, SHA-256 ${b.sha256}`;
}

/** The bytes themselves, when --bytes (or the section) asked for them. */
function shownBytes(l: Lines, indent: number, b: Bytes, label = "the bytes"): void {
  if (b.text !== undefined) l.block(indent, label, b.text);
  if (b.hex !== undefined) l.kv(indent, `${label} (hex)`, b.hex);
}

/** A signature's result and why: "verifies under …", "does not verify: …", "not checked: …". */
function resultText(result: string, detail: string): string {
  if (detail === "") return result;
  return `${result}${result !== "not checked" && detail.startsWith("under ") ? " " : ": "}${detail}`;
}

function equalText(equal: boolean): string {
  return equal ? "(equal)" : "(differs)";
}

/** Why a step stopped before its result ("stopped"), or what the primitive said of a result it computed ("code"). */
function failureLine(l: Lines, indent: number, f: StepFailure | undefined, computed = false): void {
  if (f)
    l.add(
      indent,
      `${computed ? "code" : "stopped"}: ${f.code ? `${f.code}: ` : ""}${f.detail}${f.path ? ` (at ${f.path})` : ""}`,
    );
}

function absent(l: Lines, s: object): s is Absent {
  if (!isAbsent(s)) return false;
  l.add(2, `not present: ${s.absent}`);
  return true;
}

function narrowedLines(l: Lines, n: Narrowed | undefined): void {
  if (!n) return;
  if (n.kind === "match") {
    l.add(
      4,
      `with ${n.numbers} widened number(s) written back as integers, the canonical bytes are ${bytesText(n.preimage as Bytes)}`,
    );
    l.kv(6, "which give", n.recomputed as string);
    if (n.preimage) shownBytes(l, 6, n.preimage);
  } else if (n.kind === "tooMany") {
    l.add(4, `narrowing widened numbers back to integers: ${n.reason ?? ""} stop the search`);
  } else {
    l.add(4, "no narrowing of widened numbers gives the claimed value either");
  }
}

function digest(l: Lines, title: string, s: DigestSection | Absent): void {
  l.add(0, title);
  if (absent(l, s)) return;
  l.kv(2, "rule", s.rule);
  if (s.preimage) {
    l.kv(2, "canonical bytes", bytesText(s.preimage));
    shownBytes(l, 4, s.preimage);
  }
  for (const f of s.numberFlags.items)
    l.add(4, `note: the number at ${f} is hashed as written, not as Python prints an integer`);
  l.more(4, s.numberFlags, "number(s)");
  failureLine(l, 2, s.failure);
  if (s.recomputed) l.kv(2, "recomputed", s.recomputed);
  l.kv(
    2,
    "claimed",
    s.claimed === null
      ? `absent (no ${s.claimedAt})`
      : `${s.claimed} at ${s.claimedAt}${s.recomputed ? ` ${equalText(s.equal)}` : ""}`,
  );
  narrowedLines(l, s.narrowed);
}

function cose(l: Lines, indent: number, c: CoseSection): void {
  l.kv(indent, "protected bytes", `${bytesText(c.protectedBytes)} (as received: the signature covers these)`);
  if (c.protectedBytes.hex !== undefined) l.add(indent + 2, c.protectedBytes.hex);
  l.add(indent, c.protected.length === 0 ? "protected header: {} (empty)" : "protected header:");
  for (const h of c.protected) l.add(indent + 2, `${h.label}${h.name ? ` (${h.name})` : ""}: ${h.value}`);
  l.add(indent, c.unprotected.length === 0 ? "unprotected header: {} (empty)" : "unprotected header:");
  for (const h of c.unprotected) l.add(indent + 2, `${h.label}${h.name ? ` (${h.name})` : ""}: ${h.value}`);
  l.kv(
    indent,
    "payload",
    c.payload === null
      ? "nil (detached)"
      : `${c.payloadLength} bytes ${c.payload}${(c.payloadLength ?? 0) * 2 > c.payload.length ? "…" : ""}`,
  );
  l.kv(
    indent,
    "signature",
    `${c.signatureLength} bytes ${c.signature}${c.signatureLength * 2 > c.signature.length ? "…" : ""}`,
  );
}

function checkpoint(l: Lines, indent: number, s: CheckpointSection): void {
  l.kv(indent, "at", s.at);
  if (s.reconstructed)
    l.add(
      indent,
      "read with widened numbers written back as integers: the signed body is a reconstruction, not what was received",
    );
  failureLine(l, indent, s.failure);
  if (s.signingBody === null) return;
  l.kv(indent, "log_id", s.logId ?? "");
  l.kv(indent, "mmr_size", `${s.mmrSize}, root ${s.root}`);
  l.kv(indent, "prev_size", `${s.prevSize}, prev_root ${s.prevRoot === "" ? '""' : s.prevRoot}`);
  l.kv(indent, "timestamp", `${s.timestamp} (reported, never proof of time)`);
  l.kv(indent, "signing body", `pyjson of the nine signed members, ${bytesText(s.signingBody)}`);
  l.add(indent + 2, s.signingBody.text ?? "");
  l.kv(indent, "digest", `SHA-256(signing body) = ${s.digest}`);
  l.kv(indent, "signed", `the 64 ASCII characters "${s.digest}", not the raw digest`);
  l.kv(indent, "Ed25519", `under key_id ${s.keyId}: ${s.result}`);
  l.kv(indent, "signature", s.signature ?? "");
  l.kv(indent, "entry_hash", `SHA-256(the raw 32-byte digest) = ${s.entryHash}`);
}

/** Each observed Part beside its per-Part commitment (part-commitments.md), when the entry carries them. */
function partLines(l: Lines, parts: readonly PartRow[] | undefined): void {
  if (!parts) return;
  l.add(8, `partCommitments (${parts.length}): one per Part, in order`);
  for (const p of parts) {
    l.add(10, `part ${p.index} ${p.kind ?? "(none)"}: ${p.commitment ?? "(no commitment)"}`);
    l.add(12, p.fault === null ? "recomputes: equal" : `does not recompute: ${p.fault}`);
  }
}

function observedLine(o: ObservedText, extra: string): string {
  const other = o.otherParts > 0 ? `, ${o.otherParts} other part(s) not covered` : "";
  return `observed ${o.at}${extra}: ${o.textParts} text part(s)${other}, SHA-256 ${o.recomputed}`;
}

function observedText(l: Lines, indent: number, o: ObservedText): void {
  if (o.text !== undefined) l.block(indent, "the text hashed", o.text);
}

function locationLines(l: Lines, loc: LocationSection): void {
  l.add(
    2,
    `${loc.copies.items.length + loc.copies.omitted} cop${loc.copies.items.length + loc.copies.omitted === 1 ? "y" : "ies"} located:`,
  );
  for (const c of loc.copies.items) {
    l.add(
      4,
      `${c.verified ? "* " : "  "}${c.location}  (${c.carrier}${c.artifactId !== null ? `, artifact ${c.artifactId}` : ""})${c.verified ? "  <- verified" : ""}`,
    );
  }
  l.more(4, loc.copies, "copies");
  l.kv(2, "verified copy", loc.verified);
  if (loc.bytes) {
    l.kv(2, "its bytes", `${bytesText(loc.bytes)} (the base64 part decoded)`);
    shownBytes(l, 4, loc.bytes);
  }
  l.kv(2, "carrier", `${loc.carrier}: ${loc.carrierNote}`);
  l.kv(2, "extensionVersion", loc.extensionVersion ?? "absent");
  l.kv(2, "recordProfile", loc.recordProfile ?? "absent");
}

/** A record's own derivation (sections 2–7), for the terminal record and each interim one. */
function recordLines(l: Lines, e: RecordDerivation, titles: readonly string[]): void {
  const [evidenceTitle, manifestTitle, capsuleTitle, envelopeTitle, inclusionTitle, checkpointTitle] = titles as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  digest(l, evidenceTitle, e.evidenceId);
  l.add(0, "");
  digest(l, manifestTitle, e.coreManifestDigest);
  l.add(0, "");

  l.add(0, capsuleTitle);
  const c = e.capsuleId;
  if (!absent(l, c)) {
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
  const a = e.agentDigests;
  if (!isAbsent(a)) {
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
  l.add(0, "");

  l.add(0, envelopeTitle);
  const pe = e.producerEnvelope;
  if (!absent(l, pe)) {
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
  l.add(0, "");

  l.add(0, inclusionTitle);
  const inc = e.inclusion;
  if (!absent(l, inc)) {
    l.kv(2, "proof", inc.at);
    l.kv(2, "leaf body", inc.leafBody === null ? "none" : `the carried capsule_id as raw 32 bytes: ${inc.leafBody}`);
    if (inc.leafHash) l.kv(2, "leaf hash", `SHA-256(0x00 ‖ body) = ${inc.leafHash}`);
    if (inc.leafIndex !== null) {
      l.kv(
        2,
        "leaf",
        `index ${inc.leafIndex}, position ${inc.leafPosition ?? "?"}, in an MMR of ${inc.mmrSize} node(s)`,
      );
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
  l.add(0, "");

  l.add(0, checkpointTitle);
  if (!absent(l, e.checkpoint)) checkpoint(l, 2, e.checkpoint);
}

export function renderExplanationText(e: Explanation): string {
  const l = new Lines();
  l.add(0, `inspect ${e.source}`);
  l.add(
    2,
    "every derivation step verify takes, with the bytes and values it compares; no verdict, no policy (verify reports those)",
  );
  l.kv(2, "input shape", e.shape);
  l.kv(2, "trust file", e.options.trust ? `given (${e.keys.trust} shape)` : "none (keys are matched against nothing)");
  l.add(0, "");

  l.add(0, "1. Where the bundle was found");
  locationLines(l, e.location);
  l.add(0, "");
  recordLines(l, e, [
    "2. evidenceId",
    "3. coreManifestDigest",
    "4. capsule_id, and the capsule's digests",
    "5. Producer Envelope (COSE_Sign1)",
    "6. Inclusion in the producer's log (MMR)",
    "7. Checkpoint signature",
  ]);
  l.add(0, "");

  l.add(0, "8. Transparency Service receipts");
  const rs = e.receipts;
  if (!absent(l, rs)) {
    for (const r of rs.records.items) {
      l.add(2, `${r.at}${r.tsUrl !== null ? ` ${r.tsUrl}` : ""}`);
      if (r.stub) {
        l.add(4, r.signatureDetail);
        continue;
      }
      if (r.entryHash) {
        l.kv(
          4,
          "entry_hash",
          `stated ${r.entryHash.stated ?? "absent"}, recomputed from the checkpoint ${r.entryHash.recomputed} ${equalText(r.entryHash.equal)}`,
        );
      }
      if (r.receipt) {
        l.kv(4, "receipt", `${bytesText(r.receipt)} (receipt_b64, decoded)`);
        shownBytes(l, 6, r.receipt);
      }
      if (r.cose) cose(l, 4, r.cose);
      if (r.proof) {
        const p = r.proof;
        l.kv(
          4,
          "inclusion proof",
          p.kind === "RFC9162_SHA256" ? `RFC 9162: tree_size ${p.treeSize}, leaf_index ${p.leafIndex}` : "CCF ledger",
        );
        if (p.kind === "CCF_LEDGER_SHA256") {
          l.kv(6, "write_set_digest", p.writeSetDigest ?? "");
          l.kv(6, "commit_evidence", p.commitEvidence ?? "");
          l.kv(6, "claims_digest", `${p.claimsDigest ?? ""} (must be the entry hash)`);
          l.kv(6, "leaf hash", `SHA-256(write_set_digest ‖ SHA-256(commit_evidence) ‖ claims_digest) = ${p.leafHash}`);
        } else {
          l.kv(6, "leaf hash", `SHA-256(0x00 ‖ entry_hash) = ${p.leafHash}`);
        }
        l.add(
          6,
          p.folds.length === 0
            ? "path folds: none (the leaf is the root)"
            : `path folds, bottom-up${p.kind === "RFC9162_SHA256" ? ": SHA-256(0x01 ‖ left ‖ right)" : ""}`,
        );
        for (const f of p.folds)
          l.add(8, `path[${f.index}]: sibling ${f.sibling} on the ${f.siblingSide} -> ${f.result}`);
      }
      if (r.root)
        l.kv(
          4,
          "root",
          `${r.root}${r.proofCount !== null && r.proofCount !== 1 ? ` (from the first of ${r.proofCount} inclusion proofs)` : ""}`,
        );
      if (r.recordPosition) {
        const same =
          r.proof?.treeSize !== null && r.proof?.treeSize !== undefined
            ? ` ${equalText(`${r.proof.treeSize}/${r.proof.leafIndex}` === `${r.recordPosition.treeSize}/${r.recordPosition.leafIndex}`)}`
            : "";
        l.kv(
          4,
          "record states",
          `tree_size ${r.recordPosition.treeSize}, leaf_index ${r.recordPosition.leafIndex}${same}`,
        );
      }
      if (r.sigStructure) {
        l.kv(
          4,
          "Sig_structure",
          `["Signature1", protected bytes, h'', root (detached payload)]: ${bytesText(r.sigStructure)}`,
        );
        shownBytes(l, 6, r.sigStructure);
      }
      if (r.root) l.kv(4, "signature", resultText(r.signature, r.signatureDetail));
      failureLine(l, 4, r.failure, r.signature === "does not verify");
    }
    l.more(2, rs.records, "witness record(s)");
  }
  l.add(0, "");

  l.add(0, "9. Continuity");
  const ct = e.continuity;
  if (!absent(l, ct)) {
    if (ct.prior) {
      l.add(2, "prior checkpoint:");
      checkpoint(l, 4, ct.prior);
    } else {
      l.add(2, "prior checkpoint: none carried");
    }
    if (ct.consistency) {
      const p = ct.consistency;
      l.kv(2, "consistency proof", `${p.at}: size ${p.sizeA} -> ${p.sizeB}`);
      l.add(4, "old peaks:");
      p.oldPeaks.forEach((x, i) => l.add(6, `#${i + 1} ${x}`));
      if (p.oldBagged) l.kv(4, "bagged", `${p.oldBagged} (the prior root)`);
      l.add(4, "new peaks:");
      p.newPeaks.forEach((x, i) => l.add(6, `#${i + 1} ${x}`));
      if (p.newBagged) l.kv(4, "bagged", `${p.newBagged} (this root)`);
      for (const climb of p.climbs) {
        l.add(
          4,
          `old peak #${climb.oldPeak + 1} climbs to new peak #${climb.newPeak + 1}:${climb.folds.length === 0 ? " it is that peak" : ""}`,
        );
        for (const f of climb.folds)
          l.add(6, `position ${f.position}: sibling ${f.sibling} on the ${f.siblingSide} -> ${f.result}`);
        l.add(6, `reached ${climb.top} ${equalText(climb.equal)}`);
      }
    } else {
      l.add(2, "consistency proof: none checked");
    }
    l.kv(2, "chain", `${ct.chain.outcome}: ${ct.chain.detail}${ct.chain.code ? ` (${ct.chain.code})` : ""}`);
    for (const n of ct.notes) {
      if (n.text === null) {
        l.add(2, `${n.checkpoint} checkpoint's note: none can be rendered`);
        failureLine(l, 4, n.failure);
        continue;
      }
      l.block(
        2,
        `${n.checkpoint} checkpoint's note (rendered from the checkpoint: origin, leaf count, base64 root)`,
        n.text,
      );
    }
    if (ct.lines.items.length === 0 && ct.lines.omitted === 0) l.add(2, "cosignature lines: none carried");
    for (const line of ct.lines.items) {
      l.add(
        2,
        `${line.at} (${line.checkpoint} checkpoint)${line.duplicate ? " (an exact duplicate of an earlier line)" : ""}`,
      );
      l.kv(4, "line", line.line);
      if (line.name !== null) l.kv(4, "key", `name ${line.name}, key ID ${line.keyId}`);
      if (line.witness !== null) l.kv(4, "pinned witness", `${line.witness} at ${line.trustPath}`);
      if (line.timestamp !== null) l.kv(4, "timestamp", `${line.timestamp} (the witness's claim)`);
      if (line.signedMessage)
        l.block(4, `signed message (${bytesText(line.signedMessage)})`, line.signedMessage.text ?? "");
      l.kv(4, "result", resultText(line.result, line.detail));
    }
    l.more(2, ct.lines, "line(s)");
    for (const p of ct.problems) l.add(2, `carrier: ${p}`);
  }
  l.add(0, "");

  l.add(0, "10. Keys and the trust file");
  if (e.keys.keys.items.length === 0) l.add(2, "no key in the evidence");
  for (const k of e.keys.keys.items) {
    l.add(2, `${k.role}: ${k.key}`);
    l.add(4, k.matches.length > 0 ? `matches ${k.matches.join(", ")}: ${k.detail}` : k.detail);
    if (k.window !== undefined) l.add(4, `window: ${k.window}; judged at ${k.judgedAt ?? "no trusted time"}`);
  }
  l.more(2, e.keys.keys, "key(s)");
  l.add(0, "");

  l.add(0, "11. Commitments to the observed Task");
  const cm = e.commitments;
  if (!absent(l, cm)) {
    l.kv(2, "observed Task", cm.observedTask);
    const count = (x: Listed<unknown>) => x.items.length + x.omitted;
    l.add(
      2,
      `transcript (${count(cm.transcript)} entr${count(cm.transcript) === 1 ? "y" : "ies"}): partCommitment = SHA-256 of the text parts joined with "\\n"`,
    );
    for (const t of cm.transcript.items) {
      if (t.transition) {
        transitionLines(l, t, t.transition);
        continue;
      }
      l.add(
        4,
        `[${t.index}] ${t.messageId ?? "(no messageId)"} ${t.role ?? ""} partCommitment ${t.partCommitment ?? "absent"}`,
      );
      if (t.observed) {
        l.add(6, `${observedLine(t.observed, ` (${t.observed.role})`)} ${equalText(t.equal)}`);
        observedText(l, 8, t.observed);
      } else l.add(6, "not in the observed history");
      partLines(l, t.parts);
    }
    l.more(4, cm.transcript, "transcript entries");
    for (const m of cm.uncommittedMessages.items) {
      l.add(4, `not in the transcript: message ${m.id}, ${observedLine(m, "")}`);
      observedText(l, 6, m);
    }
    l.more(4, cm.uncommittedMessages, "uncommitted message(s)");
    l.add(
      2,
      `artifacts (${count(cm.artifacts)} committed): contentCommitment = SHA-256 of the text parts joined with "\\n"`,
    );
    for (const a of cm.artifacts.items) {
      l.add(
        4,
        `[${a.index}] ${a.artifactId ?? "(no artifactId)"} name ${a.name === null ? "absent" : JSON.stringify(a.name)} contentCommitment ${a.contentCommitment ?? "absent"}`,
      );
      if (a.observed) {
        l.add(6, `${observedLine(a.observed, "")} ${equalText(a.equal)}`);
        observedText(l, 8, a.observed);
        partLines(l, a.parts);
      } else {
        l.add(6, "no observed content artifact has this artifactId");
        for (const s of a.sameName) {
          l.add(
            6,
            `same name: artifact ${s.artifactId}, ${observedLine(s, "")}${a.contentCommitment !== null ? ` ${equalText(s.recomputed === a.contentCommitment)}` : ""}`,
          );
          observedText(l, 8, s);
        }
      }
    }
    l.more(4, cm.artifacts, "committed artifact(s)");
    for (const u of cm.uncommittedArtifacts.items) {
      l.add(4, `not committed: artifact ${u.id}, ${observedLine(u, "")}`);
      observedText(l, 6, u);
    }
    l.more(4, cm.uncommittedArtifacts, "uncommitted artifact(s)");
    traceLines(l, cm.traces);
  }
  l.add(0, "");

  l.add(0, "12. Interim records");
  if (!absent(l, e.interim)) interimLines(l, e.interim, true);
  notesLines(l, e.notes);
  return l.text();
}

function notesLines(l: Lines, notes: Listed<string>): void {
  if (notes.items.length > 0 || notes.omitted > 0) {
    l.add(0, "");
    l.add(0, "Notes");
    for (const n of notes.items) l.add(2, n);
    l.more(2, notes, "note(s)");
  }
}

const PREIMAGE =
  '["a2a-task-evidence/transition/v1", taskId, contextId, sequence, fromState, toState, messageId, the Message\'s taskId, its contextId, its partCommitment]';

function transitionLines(l: Lines, row: TranscriptRow, t: TransitionRow): void {
  l.add(
    4,
    `[${row.index}] transition ${t.fromState ?? "(no fromState)"} -> ${t.toState ?? "(no toState)"}, messageId ${row.messageId ?? "null"}, transitionCommitment ${t.transitionCommitment ?? "absent"}`,
  );
  if (t.missingMembers.length > 0 || t.extraMembers.length > 0) {
    l.add(
      6,
      `members: ${[t.missingMembers.length > 0 ? `lacks ${t.missingMembers.join(", ")}` : "", t.extraMembers.length > 0 ? `also carries ${t.extraMembers.join(", ")}` : ""].filter(Boolean).join("; ")} (a transition entry has exactly fromState, kind, messageId, sequence, toState, transitionCommitment)`,
    );
  }
  if (row.observed) {
    l.add(
      6,
      `bound to the ${observedLine(row.observed, ` (${row.observed.role})`).replace(/^observed /, "observed Message ")}`,
    );
    l.add(
      8,
      `which names taskId ${JSON.stringify(t.messageTaskId ?? "")}, contextId ${JSON.stringify(t.messageContextId ?? "")} (absent is "")`,
    );
    observedText(l, 8, row.observed);
  } else if (row.messageId === null && !t.failure) {
    l.add(6, "bound to no Message: the last four elements are null");
  }
  failureLine(l, 6, t.failure);
  if (t.preimage) {
    l.kv(
      6,
      "preimage",
      `pyjson of ${PREIMAGE}, with this Task's id ${JSON.stringify(t.taskId)} and contextId ${JSON.stringify(t.contextId)}: ${bytesText(t.preimage)}`,
    );
    shownBytes(l, 8, t.preimage);
    l.kv(6, "recomputed", `${t.recomputed} ${equalText(row.equal)}`);
  }
  if (t.resumption) {
    const r = t.resumption;
    const context =
      r.sameContext === null
        ? "it names no context (a Message continuing a Task may leave contextId out)"
        : r.sameContext
          ? "the same context"
          : "another context";
    l.kv(
      6,
      "resumption",
      `the resuming Message names Task ${JSON.stringify(r.messageTaskId)}, context ${JSON.stringify(r.messageContextId)}; this Task is ${JSON.stringify(r.taskId)}, context ${JSON.stringify(r.contextId)} (${r.sameTask ? "the same Task" : "another Task"}; ${context})`,
    );
  }
}

function traceLines(l: Lines, traces: Listed<TraceRow>): void {
  const n = traces.items.length + traces.omitted;
  if (n === 0) return;
  l.add(
    2,
    `Traceability traces in metadata (${n}): traceDigest = SHA-256(pyjson(the value under the Traceability key))`,
  );
  for (const t of traces.items) {
    if (t.entry === null) l.add(4, `${t.at ?? ""}: ${t.detail}`);
    else {
      l.add(4, `${t.entry} ${t.holder ?? "(no holder)"} ${t.id ?? "(no id)"} traceDigest ${t.traceDigest ?? "absent"}`);
      if (t.at === null && !t.failure) l.add(6, t.detail);
    }
    failureLine(l, 6, t.failure);
    if (t.entry !== null && t.preimage) {
      l.add(6, `observed ${t.at}: pyjson ${bytesText(t.preimage)} ${equalText(t.equal)}`);
      shownBytes(l, 8, t.preimage);
      const nl = new Lines();
      narrowedLines(nl, t.narrowed);
      l.nest(2, nl);
    }
    if (t.callees.items.length > 0) {
      l.add(6, "callee evidence cited (listed, never fetched or followed):");
      for (const c of t.callees.items) l.add(8, `step ${c.step} (${c.callee}) -> ${c.evidenceId}`);
      l.more(8, t.callees, "citation(s)");
    }
  }
  l.more(4, traces, "trace(s)");
}

function comparisonText(c: Comparison, other: string): string {
  return `${c.what}: ${c.interim === "" ? '""' : c.interim}; ${other} ${c.other === "" ? '""' : c.other} ${equalText(c.equal)}`;
}

/** Section 12, and a pending Task's records: the citations, then each record in full. */
function interimLines(l: Lines, s: InterimSection, terminal: boolean): void {
  if (terminal) {
    const cited = s.citations.items.length + s.citations.omitted;
    l.add(
      2,
      `citations in the terminal payload (taskEvidencePayload.interimEvidence): ${cited === 0 && !s.citationsFailure ? "none" : cited}`,
    );
    failureLine(l, 4, s.citationsFailure);
    for (const c of s.citations.items) {
      const entry =
        c.entry === null
          ? "no transcript entry there"
          : c.entry.kind === null
            ? "a Message entry"
            : `a ${c.entry.kind} into ${c.entry.toState ?? "(no toState)"}`;
      l.add(4, `${c.at}: evidenceId ${c.evidenceId ?? "(none)"} at transcript[${c.sequence ?? "?"}] (${entry})`);
      if (c.failure) failureLine(l, 6, c.failure);
      else
        l.add(
          6,
          c.supplied !== null
            ? `supplied at ${c.supplied}`
            : "not supplied: pass it, or the paused Task that carries it, with --interim to have it explained",
        );
    }
    l.more(4, s.citations, "citation(s)");
  }
  const n = s.records.items.length + s.records.omitted;
  l.add(2, `${n} interim record(s) ${terminal ? "supplied (a capture's interimBundles, --interim)" : "carried"}`);
  for (const r of s.records.items) {
    l.add(0, "");
    l.add(2, r.label);
    recordOfInterim(l, r, terminal);
  }
  l.more(2, s.records, "interim record(s)");
}

function recordOfInterim(l: Lines, r: InterimRecordSection, terminal: boolean): void {
  l.kv(
    4,
    "sealed in",
    `${r.sealedIn ?? "(no terminalState)"}${r.sealTime !== null ? `, sealTime ${r.sealTime} (reported, never proof of time)` : ""}`,
  );
  const own = new Lines();
  own.add(0, "where it was found");
  locationLines(own, r.location);
  own.add(0, "");
  recordLines(own, r, [
    "its evidenceId",
    "its coreManifestDigest",
    "its capsule_id, and the capsule's digests",
    "its Producer Envelope (COSE_Sign1)",
    "its inclusion in the producer's log (MMR)",
    "its checkpoint signature",
  ]);
  l.nest(4, own);
  if (terminal) {
    l.add(4, "against the terminal record");
    if (r.signers) {
      l.add(6, comparisonText(r.signers.capsuleKey, "the terminal record's"));
      if (r.signers.checkpointKey) l.add(6, comparisonText(r.signers.checkpointKey, "the terminal record's"));
    }
    l.add(6, r.citedBy === null ? "cited by no citation of the terminal payload" : `cited by ${r.citedBy}`);
    if (r.prefix) prefixLines(l, r.prefix);
    if (r.log) logLines(l, r.log);
    else if (r.logFailure) l.add(6, r.logFailure);
  }
  if (r.pausedTask) pausedLines(l, r.pausedTask);
}

function prefixLines(l: Lines, p: PrefixSection): void {
  l.add(6, `this Task's record at the pause at transcript[${p.sequence}]: the terminal record up to it`);
  for (const m of p.members) l.add(8, comparisonText(m, "the terminal record's"));
  const t = p.transcript;
  l.add(
    8,
    `transcript: ${t.length} entr${t.length === 1 ? "y" : "ies"}; sealed at transcript[${p.sequence}] it holds the ${t.expected} up to and including that transition ${equalText(t.length === t.expected)}`,
  );
  l.add(
    10,
    t.firstDifference === null
      ? "each entry is the terminal transcript's at that index (equal)"
      : `transcript[${t.firstDifference.index}] differs from the terminal record's at ${t.firstDifference.path}: ${t.firstDifference.interim}; the terminal record's ${t.firstDifference.other}`,
  );
  l.add(
    8,
    `effects it recorded (${p.effects.items.length + p.effects.omitted}): each in the terminal payload's nonEvidenceArtifacts, identical`,
  );
  for (const e of p.effects.items) l.add(10, `${e.artifactId ?? "(no artifactId)"}: ${e.kept}`);
  l.more(10, p.effects, "effect(s)");
  l.add(8, comparisonText(p.citations, "the terminal record's citations before it"));
}

function logLines(l: Lines, g: LogRelation): void {
  l.add(6, "its place in the log");
  l.add(8, comparisonText(g.logId, "the terminal checkpoint's"));
  l.add(
    8,
    `leaf ${g.leafIndex.interim}; the terminal record's leaf ${g.leafIndex.terminal} ${g.leafIndex.interim < g.leafIndex.terminal ? "(earlier)" : "(not earlier)"}`,
  );
  l.add(8, `checkpoint mmr_size ${g.mmrSize.interim}, root ${g.root.interim}`);
  l.add(
    8,
    `the terminal checkpoint's mmr_size ${g.mmrSize.terminal}, root ${g.root.terminal}${g.mmrSize.interim === g.mmrSize.terminal ? ` ${g.root.interim === g.root.terminal ? "(the same checkpoint)" : "(the same size, another root)"}` : ""}`,
  );
  for (const step of g.chain) {
    const c = step.consistency;
    l.add(
      8,
      `consistency ${step.fromSize} -> ${step.toSize}, carried by ${step.carriedBy} (${c.at}): ${step.verifies ? "verifies" : "does not verify"}`,
    );
    l.add(10, "old peaks:");
    c.oldPeaks.forEach((x, i) => l.add(12, `#${i + 1} ${x}`));
    if (c.oldBagged) l.kv(10, "bagged", c.oldBagged);
    l.add(10, "new peaks:");
    c.newPeaks.forEach((x, i) => l.add(12, `#${i + 1} ${x}`));
    if (c.newBagged) l.kv(10, "bagged", c.newBagged);
    for (const climb of c.climbs) {
      l.add(
        10,
        `old peak #${climb.oldPeak + 1} climbs to new peak #${climb.newPeak + 1}:${climb.folds.length === 0 ? " it is that peak" : ""}`,
      );
      for (const f of climb.folds)
        l.add(12, `position ${f.position}: sibling ${f.sibling} on the ${f.siblingSide} -> ${f.result}`);
      l.add(12, `reached ${climb.top} ${equalText(climb.equal)}`);
    }
    failureLine(l, 10, step.failure, true);
  }
  if (g.mmrSize.interim < g.mmrSize.terminal) {
    l.add(
      8,
      `the chain reached mmr_size ${g.reached.size}, root ${g.reached.root}${g.reached.size === g.mmrSize.terminal ? ` ${equalText(g.reached.root === g.root.terminal)}` : ": no carried consistency proof leads on from there"}`,
    );
  }
}

function pausedLines(l: Lines, p: PausedTaskSection): void {
  l.add(4, `against the paused Task it came with, ${p.task}`);
  for (const m of p.members) l.add(6, comparisonText(m, "the Task's"));
  l.add(
    6,
    `its Messages (${p.messages.items.length + p.messages.omitted}), each in the interim transcript, in order, with its role and text commitment:`,
  );
  for (const m of p.messages.items) {
    l.add(8, `${observedLine(m.observed, ` (${m.observed.role})`)}`);
    l.add(
      10,
      m.entry === null
        ? `no Message entry ${m.messageId} in the interim transcript`
        : `transcript[${m.entry}] ${m.role ?? "(no role)"} partCommitment ${m.partCommitment ?? "absent"}${m.inOrder ? "" : " (out of order)"} ${equalText(m.equal)}`,
    );
    observedText(l, 10, m.observed);
  }
  l.more(8, p.messages, "Message(s)");
  l.add(
    6,
    `its effects (${p.effects.items.length + p.effects.omitted} content Artifact(s)), each committed by the interim record:`,
  );
  for (const e of p.effects.items) {
    l.add(8, `artifact ${e.artifactId}, ${observedLine(e.observed, "")}`);
    l.add(10, `contentCommitment ${e.contentCommitment ?? "(not recorded)"} ${equalText(e.equal)}`);
    observedText(l, 10, e.observed);
  }
  l.more(8, p.effects, "effect(s)");
}

/** A Task that has not ended: what it is, what verify says of it, and the interim records it carries. */
export function renderPendingText(e: PendingExplanation): string {
  const l = new Lines();
  l.add(0, `inspect ${e.source}`);
  l.add(
    2,
    "every derivation step verify takes, with the bytes and values it compares; no verdict, no policy (verify reports those)",
  );
  l.kv(2, "input shape", e.shape);
  l.kv(2, "trust file", e.options.trust ? "given" : "none (keys are matched against nothing)");
  l.add(0, "");
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
