/**
 * The continuity chain (log-and-receipts.md §4.4; continuity-witness.md §4): the prior
 * checkpoint's signature, the chain rule and each fold of the MMR consistency proof from the prior
 * root to this one, the C2SP note rendered from each checkpoint, and every cosignature line with
 * the bytes its Ed25519 signature covers, the trust-file witness it names and the result.
 *
 * The lines are the ones verify reads (the bundle's continuityEvidence and the --cosignatures
 * entries whose note is this input's); the comparison across inputs (a forked log) is verify's.
 */
import { member } from "../json/value.js";
import { parseCheckpoint, type Checkpoint } from "../log/checkpoint.js";
import { verifyCheckpointChain } from "../log/checkpoint-chain.js";
import { parseConsistencyProof, type ConsistencyProof } from "../log/mmr.js";
import type { Result } from "../result.js";
import { carriedEvidence, labelOf } from "../evidence/cosignatures.js";
import type { EvidenceContext } from "../evidence/context.js";
import { manifestCheckpoint } from "../evidence/manifest-checkpoint.js";
import type { TrustedWitness, TrustedWitnessKey } from "../trust/config.js";
import { renderCllNote, type CllNote } from "../witness/cll-note.js";
import { cosignedMessage, parseTimestampedSignature, verifyCosignature } from "../witness/cosignature.js";
import type { CarriedLine, CheckpointRole } from "../witness/evidence.js";
import { parseSignatureLine } from "../witness/note.js";
import { checkpointOf } from "./checkpoint.js";
import { foldStep, hex, listed, stepFailure, text } from "./common.js";
import type {
  Absent,
  ConsistencyClimb,
  ConsistencySection,
  ContinuitySection,
  CosignatureLine,
  InspectOptions,
  MmrFoldStep,
  NoteSection,
} from "./model.js";

const PRIOR_AT = "manifest.priorCheckpoint";
const PROOF_AT = "manifest.consistencyProof";

function present<T>(v: T | undefined | null): v is T {
  return v !== undefined && v !== null;
}

export function continuitySection(ctx: EvidenceContext, o: InspectOptions): ContinuitySection | Absent {
  const cp = manifestCheckpoint(ctx)?.result;
  const manifest = ctx.manifest;
  if (cp === undefined || manifest === undefined) return { absent: "the bundle carries no checkpoint" };
  if (!cp.ok) {
    return {
      prior: null,
      consistency: null,
      chain: { outcome: "not-checked", detail: "the checkpoint is malformed (see the checkpoint signature)" },
      notes: [],
      lines: { items: [], omitted: 0 },
      problems: [],
    };
  }
  const current = cp.value;
  const priorValue = member(manifest, "priorCheckpoint");
  const proofValue = member(manifest, "consistencyProof");
  const priorParsed = present(priorValue) ? parseCheckpoint(priorValue, PRIOR_AT) : undefined;
  const prior: Checkpoint | null = priorParsed?.ok ? priorParsed.value : null;
  const proofParsed = present(proofValue) ? parseConsistencyProof(proofValue, PROOF_AT) : undefined;

  const { chain, consistency } = chainOf(current, prior, priorParsed, proofParsed);

  const carried = carriedEvidence(ctx, current, prior);
  const { notes, noteSections } = notesOf(current, prior);
  const pinned = new Map<string, { witness: TrustedWitness; key: TrustedWitnessKey }>();
  for (const witness of ctx.trust?.witnesses ?? [])
    for (const key of witness.keys) pinned.set(`${witness.name}\n${key.keyIdHex}`, { witness, key });
  const seen = new Set<string>();
  const lines = listed(carried.lines, o, (l) => lineOf(l, notes, pinned, seen, o));
  return {
    prior: priorParsed ? checkpointOf(priorParsed, PRIOR_AT, false, o) : null,
    consistency,
    chain,
    notes: noteSections,
    lines,
    problems: [
      ...carried.problems.map((c) => c.detail),
      ...carried.unsupported.map(
        (u) => `${u.path}: an entry of type ${JSON.stringify(u.type)}, which this verifier does not implement: ignored`,
      ),
    ],
  };
}

/** How the checkpoint chains to its prior, and the consistency proof as the chain rule reached it. */
function chainOf(
  current: Checkpoint,
  prior: Checkpoint | null,
  priorParsed: Result<Checkpoint> | undefined,
  proofParsed: Result<ConsistencyProof> | undefined,
): { chain: ContinuitySection["chain"]; consistency: ConsistencySection | null } {
  let chain: ContinuitySection["chain"];
  let consistency: ConsistencySection | null = null;
  if (priorParsed && !priorParsed.ok) {
    chain = {
      outcome: "broken",
      detail: `the prior checkpoint is malformed: ${priorParsed.detail}`,
      code: priorParsed.code,
    };
  } else if (proofParsed && !proofParsed.ok) {
    chain = {
      outcome: "broken",
      detail: `the consistency proof is malformed: ${proofParsed.detail}`,
      code: proofParsed.code,
    };
  } else {
    const proof: ConsistencyProof | null = proofParsed?.ok ? proofParsed.value : null;
    const traced = proof && prior ? consistencyTrace(proof) : undefined;
    const r = verifyCheckpointChain(prior, current, proof, traced?.trace);
    // Shown only when the chain rule reached the proof: a link that fails first (another log, a
    // prev_root that is not the prior's root) leaves the proof unchecked, as in verify.
    if (traced && traced.section.oldBagged !== null) consistency = traced.section;
    if (r.ok) {
      chain =
        r.value.link === "first"
          ? { outcome: "first", detail: "first checkpoint of its log (prev_size 0, no prior): nothing to chain" }
          : {
              outcome: "chained",
              detail: `history intact between checkpoints at mmr_size ${r.value.priorSize} and ${r.value.mmrSize} (anti-rewrite only, not anti-fork)`,
            };
    } else {
      chain = {
        outcome: r.code === "CHAIN_PRIOR_MISSING" ? "prior-missing" : "broken",
        detail: r.detail,
        code: r.code,
      };
    }
  }
  return { chain, consistency };
}

/** The notes the current and prior checkpoints render to, by role, and as sections. */
function notesOf(
  current: Checkpoint,
  prior: Checkpoint | null,
): { notes: Map<CheckpointRole, CllNote>; noteSections: NoteSection[] } {
  const notes = new Map<CheckpointRole, CllNote>();
  const noteSections: NoteSection[] = [];
  for (const [role, c] of [
    ["current", current],
    ["prior", prior],
  ] as const) {
    if (c === null) continue;
    const n = renderCllNote(c);
    if (n.ok) notes.set(role, n.value);
    noteSections.push(
      n.ok
        ? {
            checkpoint: role,
            origin: n.value.origin,
            leafCount: n.value.leafCount,
            rootBase64: n.value.rootBase64,
            text: n.value.text,
          }
        : { checkpoint: role, origin: null, leafCount: null, rootBase64: null, text: null, failure: stepFailure(n) },
    );
  }
  return { notes, noteSections };
}

export function consistencyTrace(proof: ConsistencyProof): {
  section: ConsistencySection;
  trace: Parameters<typeof verifyCheckpointChain>[3];
} {
  const climbs: ConsistencyClimb[] = [];
  let folds: MmrFoldStep[] = [];
  const section = {
    at: PROOF_AT,
    sizeA: proof.sizeA,
    sizeB: proof.sizeB,
    oldPeaks: proof.oldPeaks.map(hex),
    newPeaks: proof.newPeaks.map(hex),
    oldBagged: null as string | null,
    newBagged: null as string | null,
    climbs,
  };
  let newPeak = 0;
  return {
    section,
    trace: {
      bagged: (which, root) => {
        if (which === "old") section.oldBagged = hex(root);
        else section.newBagged = hex(root);
      },
      climb: (_old, j) => {
        folds = [];
        newPeak = j;
      },
      fold: (position, sibling, siblingIsLeft, result) =>
        folds.push(foldStep(position, sibling, siblingIsLeft, result)),
      top: (i, top) => {
        const target = proof.newPeaks[newPeak];
        climbs.push({
          oldPeak: i,
          newPeak,
          folds,
          top: hex(top),
          equal: target !== undefined && hex(target) === hex(top),
        });
      },
    },
  };
}

function lineOf(
  carried: CarriedLine,
  notes: ReadonlyMap<CheckpointRole, CllNote>,
  pinned: ReadonlyMap<string, { witness: TrustedWitness; key: TrustedWitnessKey }>,
  seen: Set<string>,
  o: InspectOptions,
): CosignatureLine {
  const key = `${carried.role}\n${carried.line}`;
  const duplicate = seen.has(key);
  seen.add(key);
  const base: CosignatureLine = {
    at: carried.path,
    line: carried.line,
    checkpoint: carried.role,
    name: null,
    keyId: null,
    duplicate,
    witness: null,
    trustPath: null,
    timestamp: null,
    signedMessage: null,
    result: "not checked",
    detail: "",
  };
  const note = notes.get(carried.role);
  if (note === undefined)
    return {
      ...base,
      detail: `no note can be rendered for the ${carried.role} checkpoint (not carried, or not representable as a note)`,
    };
  const line = parseSignatureLine(carried.line);
  if (!line.ok) return { ...base, detail: `not a C2SP signature line: ${line.detail} (${line.code})` };
  const named = { ...base, name: line.value.name, keyId: line.value.keyIdHex };
  const hit = pinned.get(`${line.value.name}\n${line.value.keyIdHex}`);
  if (hit === undefined)
    return { ...named, detail: "no trust-file witness pins this name and key ID: ignored, as signed-note requires" };
  const withWitness = { ...named, witness: labelOf(hit.witness), trustPath: hit.key.path };
  const signed = parseTimestampedSignature(line.value.signature);
  if (!signed.ok) return { ...withWitness, result: "does not verify", detail: `${signed.detail} (${signed.code})` };
  const message = cosignedMessage(note.text, signed.value.timestamp);
  const verifies = verifyCosignature(note.text, signed.value, hit.key.key);
  return {
    ...withWitness,
    timestamp: signed.value.timestamp.toString(),
    signedMessage: text(Buffer.from(message).toString("utf8"), o, true),
    result: verifies ? "verifies" : "does not verify",
    detail: `under the key pinned at ${hit.key.path}${duplicate ? " (an exact duplicate: counted once)" : ""}`,
  };
}
