/**
 * A CLL checkpoint rendered as a checkpoint-shaped note (profile `cll-mmr/v1`), the text a
 * CLL-aware witness cosigns:
 *
 *   agentactioncapsule.org/cll-mmr/v1/<log_id> LF
 *   <leaf count of mmr_size, decimal, no leading zeros> LF
 *   <base64 of the 32-byte bagged root, padded> LF
 *
 * The verifier renders the note itself from the checkpoint it verified; a bundle never supplies
 * note text. There are no extension lines: implementations disagree on whether a cosignature
 * covers them (transparency-dev signs them, torchwood drops them, sigsum refuses them), so the
 * tree type and hashing profile travel in the origin prefix instead, which every implementation
 * signs. The size line is the leaf count, as tlog-checkpoint defines it; every valid MMR size maps
 * to exactly one leaf count. The root is the CLL bagged root, not an RFC 6962 root: only a
 * witness that knows this origin prefix can honestly cosign the note.
 */
import { leafCount } from "../log/mmr.js";
import type { Checkpoint } from "../log/checkpoint.js";
import { fail, ok, type Result } from "../result.js";
import { bytesToBase64 } from "../util/bytes.js";

export const CLL_ORIGIN_PREFIX = "agentactioncapsule.org/cll-mmr/v1/";
/** No space, "+", control or non-ASCII character: a log_id a note origin can carry verbatim. */
const REPRESENTABLE_LOG_ID = /^[A-Za-z0-9._~:/-]{1,200}$/;

export interface CllNote {
  readonly origin: string;
  readonly leafCount: number;
  readonly rootBase64: string;
  /** The three lines, each LF-terminated: the bytes after the cosignature header. */
  readonly text: string;
}

export function renderCllNote(cp: Pick<Checkpoint, "logId" | "mmrSize" | "root">): Result<CllNote> {
  if (!REPRESENTABLE_LOG_ID.test(cp.logId)) {
    return fail(
      "LOG_ID_NOT_REPRESENTABLE",
      `log_id ${JSON.stringify(cp.logId.slice(0, 80))} cannot be a note origin (1–200 of A–Z a–z 0–9 . _ ~ : / -)`,
    );
  }
  // An empty log has no head a witness could have checked consistency to.
  if (cp.mmrSize === 0) return fail("NOTE_SIZE_NOT_ELIGIBLE", "mmr_size 0: an empty log has no checkpoint to cosign");
  const leaves = leafCount(cp.mmrSize);
  if (!leaves.ok) return fail("NOTE_SIZE_NOT_ELIGIBLE", `mmr_size ${cp.mmrSize}: ${leaves.detail}`);
  const origin = CLL_ORIGIN_PREFIX + cp.logId;
  const rootBase64 = bytesToBase64(cp.root);
  return ok({ origin, leafCount: leaves.value, rootBase64, text: `${origin}\n${leaves.value}\n${rootBase64}\n` });
}
