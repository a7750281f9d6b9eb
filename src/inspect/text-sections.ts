/**
 * The terminal record's later sections as text: Transparency Service receipts, continuity, keys,
 * and the commitments to the observed Task (transcript, transitions, artifacts, traces).
 */
import {
  type Explanation,
  type Listed,
  type ReceiptProof,
  type TraceRow,
  type TranscriptRow,
  type TransitionRow,
} from "./model.js";
import {
  Lines,
  bytesText,
  shownBytes,
  resultText,
  equalText,
  failureLine,
  absent,
  narrowedLines,
  cose,
  checkpoint,
  partLines,
  observedLine,
  observedText,
} from "./text-lines.js";

/** A receipt's inclusion proof: its leaf hash and each fold of its path. */
function receiptProofLines(l: Lines, p: ReceiptProof): void {
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
  for (const f of p.folds) l.add(8, `path[${f.index}]: sibling ${f.sibling} on the ${f.siblingSide} -> ${f.result}`);
}

export function receiptsLines(l: Lines, rs: Explanation["receipts"]): void {
  if (absent(l, rs)) return;
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
    if (r.proof) receiptProofLines(l, r.proof);
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

export function continuityLines(l: Lines, ct: Explanation["continuity"]): void {
  if (absent(l, ct)) return;
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

export function keysLines(l: Lines, keys: Explanation["keys"]): void {
  if (keys.keys.items.length === 0) l.add(2, "no key in the evidence");
  for (const k of keys.keys.items) {
    l.add(2, `${k.role}: ${k.key}`);
    l.add(4, k.matches.length > 0 ? `matches ${k.matches.join(", ")}: ${k.detail}` : k.detail);
    if (k.window !== undefined) l.add(4, `window: ${k.window}; judged at ${k.judgedAt ?? "no trusted time"}`);
  }
  l.more(2, keys.keys, "key(s)");
}

export function commitmentsLines(l: Lines, cm: Explanation["commitments"]): void {
  if (absent(l, cm)) return;
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
