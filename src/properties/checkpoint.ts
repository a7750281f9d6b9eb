/** The manifest's checkpoint, parsed once and shared by the log properties. */
import { member } from "../json/value.js";
import { parseCheckpoint, type Checkpoint } from "../log/checkpoint.js";
import type { Result } from "../result.js";
import type { EvidenceContext } from "./context.js";

export const CHECKPOINT_PATH = "manifest.cllCheckpoint";

/** undefined when the bundle carries no checkpoint; otherwise the parse result. */
export function manifestCheckpoint(ctx: EvidenceContext): Result<Checkpoint> | undefined {
  return ctx.once("checkpoint", () => {
    const cp = ctx.manifest ? member(ctx.manifest, "cllCheckpoint") : undefined;
    if (cp === undefined || cp === null) return undefined;
    return parseCheckpoint(cp, CHECKPOINT_PATH);
  });
}
