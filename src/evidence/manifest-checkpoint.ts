/** The manifest's checkpoint, parsed once and shared by the log properties. */
import { member, memberAt, type JsonValue } from "../json/value.js";
import { findNarrowing } from "./widening.js";
import { parseCheckpoint, verifyCheckpointSignature, type Checkpoint } from "../log/checkpoint.js";
import type { Result } from "../result.js";
import type { EvidenceContext } from "./context.js";

export const CHECKPOINT_PATH = "manifest.cllCheckpoint";

export interface ManifestCheckpoint {
  readonly result: Result<Checkpoint>;
  /**
   * True when the checkpoint only parses or verifies with widened numbers written back as
   * integers (structured carriers): its signed body is then a reconstruction, not what was received.
   */
  readonly narrowed: boolean;
}

function checkpointIn(bundle: JsonValue): JsonValue | undefined {
  const manifest = memberAt(bundle, "manifest");
  const cp = memberAt(manifest, "cllCheckpoint");
  return cp === null ? undefined : cp;
}

/** undefined when the bundle carries no checkpoint; otherwise the parse result. */
export function manifestCheckpoint(ctx: EvidenceContext): ManifestCheckpoint | undefined {
  return ctx.once("checkpoint", () => {
    const presented = checkpointIn(ctx.bundle);
    if (presented === undefined) return undefined;
    const result = parseCheckpoint(presented, CHECKPOINT_PATH);
    if (ctx.structuredCarrier && (!result.ok || !verifyCheckpointSignature(result.value).ok)) {
      // The presented checkpoint does not parse or verify; if the carrier widened its integers,
      // a narrowing under which the signature verifies is what it is judged on (and only ever
      // INCONCLUSIVE then). One that verifies under no narrowing is judged as presented (§9.17).
      const n = findNarrowing(presented, (candidate) => {
        const again = parseCheckpoint(candidate, CHECKPOINT_PATH);
        return again.ok && verifyCheckpointSignature(again.value).ok;
      });
      if (n.kind === "match") {
        const again = parseCheckpoint(n.value, CHECKPOINT_PATH);
        if (again.ok) return { result: again, narrowed: true };
      }
      // Parsing needs integer lexemes: a widened checkpoint whose signature fails anyway is
      // still read with its integers narrowed, so the signature, not the parse, is what FAILs.
      if (!result.ok) {
        const structural = checkpointIn(ctx.structural);
        const again = structural === undefined ? result : parseCheckpoint(structural, CHECKPOINT_PATH);
        if (again.ok) return { result: again, narrowed: true };
      }
    }
    return { result, narrowed: false };
  });
}

/** The manifest's prior checkpoint, parsed once; undefined when none is carried or it is malformed. */
export function priorCheckpoint(ctx: EvidenceContext): Checkpoint | undefined {
  return ctx.once("prior checkpoint", () => {
    const v = ctx.manifest ? member(ctx.manifest, "priorCheckpoint") : undefined;
    if (v === undefined || v === null) return undefined;
    const r = parseCheckpoint(v, "manifest.priorCheckpoint");
    return r.ok ? r.value : undefined;
  });
}
