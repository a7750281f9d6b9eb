/** The manifest's checkpoint, parsed once and shared by the log properties. */
import { memberAt, jsonEquals, type JsonValue } from "../../json/value.js";
import { parseCheckpoint, verifyCheckpointSignature, type Checkpoint } from "../../log/checkpoint.js";
import type { Result } from "../../result.js";
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
      // the reconstruction with them narrowed is what the signature is judged on (and only
      // ever INCONCLUSIVE when it verifies).
      const narrowed = checkpointIn(ctx.structural);
      if (narrowed !== undefined && !jsonEquals(presented, narrowed)) {
        const again = parseCheckpoint(narrowed, CHECKPOINT_PATH);
        if (again.ok) return { result: again, narrowed: true };
      }
    }
    return { result, narrowed: false };
  });
}
