/**
 * The comparison across inputs (several inputs, or --checkpoints): what one input shows of its
 * logs (its sighting: checkpoints, witness lines under pinned keys, stamps), every input's findings
 * from comparing the sightings (src/witness/equivocation.ts), and equivocation.crossInput, which
 * the run appends to each input's continuity (`withCrossInput`).
 */
import { isJsonObject, member, memberAt, type JsonObject, type JsonValue } from "../../json/value.js";
import { parseCheckpoint, verifyCheckpointSignature, type Checkpoint } from "../../log/checkpoint.js";
import type { TrustConfig } from "../../trust/config.js";
import { renderCllNote } from "../../witness/cll-note.js";
import {
  findEquivocations,
  findRegistrationForks,
  sighted,
  type CrossInputFindings,
  type InputCheckpoints,
  type StampedHead,
} from "../../witness/equivocation.js";
import { parseContinuityEvidence } from "../../witness/evidence.js";
import { StatementPool, pinnedWitnessKeys, statementsOf, type WitnessStatement } from "../../witness/pool.js";
import type { EvidenceContext } from "../../evidence/context.js";
import { stampedHeads } from "../external-registration.js";
import type { Check, PropertyResult } from "../shared/types.js";
import { findNarrowing } from "../../evidence/widening.js";
import { manifestCheckpoint } from "../../evidence/manifest-checkpoint.js";
import { check, EVIDENCE_PATH, present } from "./checks.js";

/**
 * What one input shows of its logs, for comparison with the other inputs (undefined: nothing to
 * show): its checkpoints, and its witness lines that verify under the trust file's keys.
 */
export function sightingOf(source: string, ctx: EvidenceContext): InputCheckpoints | undefined {
  const primary = ctx.located;
  const trust = ctx.trust;
  const signed = signedCheckpoints(primary.bundle, ctx.structuredCarrier, () => {
    // The manifest's checkpoint as the properties read it: parsed (and narrowed) once per input.
    const m = manifestCheckpoint(ctx)?.result;
    return m?.ok ? m.value : undefined;
  });
  const cosigned = (trust?.witnesses.length ?? 0) > 0 ? cosignedIn(source, signed, primary.bundle, trust) : [];
  const stamped = (trust?.transparencyServices.size ?? 0) > 0 ? stampedHeads(ctx) : [];
  return sighting(source, signed, cosigned, stamped);
}

/** An input's sighting, always of one shape: what it shows, `undefined` where it shows nothing. */
function sighting(
  source: string,
  signed: SignedCheckpoints,
  cosigned: readonly WitnessStatement[],
  stamped: readonly StampedHead[],
): InputCheckpoints {
  return {
    source,
    current: signed.current === undefined ? undefined : sighted(signed.current),
    prior: signed.prior === undefined ? undefined : sighted(signed.prior),
    cosigned: cosigned.length > 0 ? cosigned : undefined,
    stamped: stamped.length > 0 ? stamped : undefined,
  };
}

/** The bundle's lines over its own (signed) checkpoints' notes that verify under pinned keys. */
function cosignedIn(
  source: string,
  signed: SignedCheckpoints,
  bundle: JsonObject,
  trust: TrustConfig | undefined,
): WitnessStatement[] {
  const raw = member(bundle, EVIDENCE_PATH);
  const carried = present(raw) ? parseContinuityEvidence(raw, EVIDENCE_PATH) : undefined;
  if (!carried?.ok) return [];
  const pinned = pinnedWitnessKeys(trust?.witnesses);
  return (["current", "prior"] as const).flatMap((role) => {
    const cp = signed[role];
    const note = cp ? renderCllNote(cp) : undefined;
    if (!note?.ok) return [];
    const lines = carried.value.lines
      .filter((l) => l.role === role)
      .map((l) => ({ line: l.line, where: `${l.path} in ${source}` }));
    return statementsOf(note.value.text, lines, pinned);
  });
}

/**
 * Every input's findings from comparing their checkpoints (and a --checkpoints list), their
 * witnesses' lines (with the --cosignatures file's, `fileLines`) and their stamps, in input order;
 * undefined when fewer than two sightings leave nothing to compare.
 */
export function crossInputFindings(
  sightings: readonly (InputCheckpoints | undefined)[],
  seen: readonly Checkpoint[],
  trust: TrustConfig | undefined,
  fileLines: readonly WitnessStatement[] = [],
): (CrossInputFindings | undefined)[] | undefined {
  const present: InputCheckpoints[] = [];
  const indexes: number[] = [];
  sightings.forEach((s, k) => {
    if (s === undefined) return;
    indexes.push(k);
    present.push(s);
  });
  if (present.length + seen.length < 2) return undefined;
  const findings = findEquivocations(present, seen, producerIdentities(trust));
  const pool = new StatementPool().add(fileLines);
  for (const s of present) pool.add(s.cosigned ?? []);
  const witnesses = pool.equivocations();
  const registration = findRegistrationForks(present);
  const out: (CrossInputFindings | undefined)[] = sightings.map(() => undefined);
  indexes.forEach((k, j) => {
    const forks = registration[j] ?? [];
    out[k] = {
      ...(findings[j] as CrossInputFindings),
      ...(witnesses.length > 0 ? { witnesses } : {}),
      ...(forks.length > 0 ? { registration: forks } : {}),
    };
  });
  return out;
}

/**
 * continuity with this input's findings from comparing every input's checkpoints (and a
 * --checkpoints list) appended: a fork FAILs the property; anything else is reported and leaves
 * its state as it was — agreeing with other inputs proves nothing a witness did not.
 */
export function withCrossInput(result: PropertyResult, findings: CrossInputFindings): PropertyResult {
  const c = crossInputCheck(findings);
  const checks = [...result.checks, c];
  if (c.state !== "FAIL") return { ...result, checks };
  return { state: "FAIL", detail: result.state === "FAIL" ? result.detail : c.detail, checks };
}

/** The `equivocation.crossInput` check for one input's findings. */
export function crossInputCheck(f: CrossInputFindings): Check {
  const id = "equivocation.crossInput";
  const first = f.forks[0];
  if (first !== undefined) {
    const more = f.forks.length > 1 ? ` (and ${f.forks.length - 1} more size(s))` : "";
    return check(
      id,
      "FAIL",
      `the log forked: log ${JSON.stringify(first.logId)} at mmr_size ${first.mmrSize} has root ${first.root} (${first.statedBy}) and root ${first.otherRoot} (${first.otherStatedBy}), both signed by its producer${more}`,
      {
        code: "EQUIVOCATION_FORK",
        values: { logId: first.logId, mmrSize: String(first.mmrSize), root: first.root, otherRoot: first.otherRoot },
      },
    );
  }
  if (f.compared === 0)
    return check(
      id,
      "NOT_PRESENT",
      "no other input or --checkpoints entry states a checkpoint of this log: nothing to compare",
    );
  const stale = f.stale !== undefined ? `; stale, not a fork: ${f.stale}` : "";
  return check(
    id,
    "PASS",
    `no fork: ${f.compared} statement(s) of this log from other inputs or --checkpoints agree at every size both state${stale}`,
  );
}

/** An input's two checkpoints whose producer's signature verifies, as parsed. */
interface SignedCheckpoints {
  readonly current: Checkpoint | undefined;
  readonly prior: Checkpoint | undefined;
}

/**
 * The checkpoints one input's primary bundle carries, as the comparison reads them (its sighting,
 * without witnesses or stamps): each parsed as presented, or — from a protobuf carrier that may
 * have widened its integers — under a narrowing its producer's signature verifies for.
 */
export function inputCheckpoints(source: string, bundle: JsonObject, structuredCarrier: boolean): InputCheckpoints {
  return sighting(source, signedCheckpoints(bundle, structuredCarrier), [], []);
}

/**
 * The bundle's checkpoints whose producer's signature verifies: the current one as `current`
 * gives it (the properties' own reading) or as parsed from the manifest, and the prior one.
 */
function signedCheckpoints(
  bundle: JsonObject,
  structuredCarrier: boolean,
  current?: () => Checkpoint | undefined,
): SignedCheckpoints {
  const valid = (cp: Checkpoint | undefined) => (cp !== undefined && verifyCheckpointSignature(cp).ok ? cp : undefined);
  const read = (name: "cllCheckpoint" | "priorCheckpoint"): Checkpoint | undefined => {
    const presented = memberAt(bundle, "manifest", name);
    if (!isJsonObject(presented)) return undefined;
    const path = `manifest.${name}`;
    const signed = (v: JsonValue) => {
      const r = parseCheckpoint(v, path);
      return r.ok ? valid(r.value) : undefined;
    };
    const asPresented = signed(presented);
    if (asPresented !== undefined || !structuredCarrier) return asPresented;
    const n = findNarrowing(presented, (candidate) => signed(candidate) !== undefined);
    return n.kind === "match" ? signed(n.value) : undefined;
  };
  return { current: current ? valid(current()) : read("cllCheckpoint"), prior: read("priorCheckpoint") };
}

/**
 * The producer identity of a checkpoint key under a trust file: keys pinned for one authority (or
 * for authorities that share a key) are one producer; any other key is its own.
 */
export function producerIdentities(trust: TrustConfig | undefined): (keyIdHex: string) => string {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root) as string;
    return root;
  };
  for (const [authority, keys] of trust?.producers ?? []) {
    const node = `authority ${authority}`;
    if (!parent.has(node)) parent.set(node, node);
    for (const k of keys) {
      const hex = k.key.ed25519Hex;
      if (hex === undefined) continue;
      const a = find(node);
      const b = parent.has(hex) ? find(hex) : hex;
      if (!parent.has(hex)) parent.set(hex, hex);
      if (a !== b) parent.set(b, a);
    }
  }
  return (keyIdHex) => (parent.has(keyIdHex) ? find(keyIdHex) : keyIdHex);
}
