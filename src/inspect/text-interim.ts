/** Interim records as text: each record's own derivation, then how it relates to the terminal record. */
import {
  type Comparison,
  type InterimRecordSection,
  type InterimSection,
  type Listed,
  type LogRelation,
  type PausedTaskSection,
  type PrefixSection,
} from "./model.js";
import { Lines, equalText, failureLine, observedLine, observedText } from "./text-lines.js";
import { recordLines } from "./text-record.js";

export function notesLines(l: Lines, notes: Listed<string>): void {
  if (notes.items.length > 0 || notes.omitted > 0) {
    l.add(0, "");
    l.add(0, "Notes");
    for (const n of notes.items) l.add(2, n);
    l.more(2, notes, "note(s)");
  }
}

function comparisonText(c: Comparison, other: string): string {
  return `${c.what}: ${c.interim === "" ? '""' : c.interim}; ${other} ${c.other === "" ? '""' : c.other} ${equalText(c.equal)}`;
}

/** Section 12, and a pending Task's records: the citations, then each record in full. */
export function interimLines(l: Lines, s: InterimSection, terminal: boolean): void {
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
  recordLines(own, r, [
    "where it was found",
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
