/**
 * Trusted time (contract §5.1): the earliest time an independent party signed for an object.
 *
 *   - a verified cosignature/v1 timestamp of a pinned, independent witness over the CLL note of a
 *     checkpoint (for a record: the checkpoint its leaf is proven in by the local inclusion proof);
 *   - the signed `iat` (CWT claim 6 in protected header 15) of a receipt verified under a key
 *     pinned for an independent Transparency Service, for the checkpoint its entry hash binds;
 *   - `--at`, the caller's own assertion that whatever exists was signed no later than then.
 *
 * Producer-stated times (`sealedAt`, a checkpoint's `timestamp`) are never used. A witness or
 * service whose own key is outside its window does not lend its time (judgeOwnClaim). Everything
 * here is computed only when the trust file pins a key with a window, so a trust file without
 * windows gives exactly the reports it always gave.
 */
import { isJsonObject, member, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { checkpointEntryHash, type Checkpoint } from "../log/checkpoint.js";
import { checkReceipt, receiptIatOf } from "../log/receipt.js";
import { base64ToBytesStrict, hexToBytes } from "../util/bytes.js";
import type { EvidenceContext } from "../evidence/context.js";
import { CHECKPOINT_PATH, manifestCheckpoint } from "../evidence/manifest-checkpoint.js";
import { judgeOperator } from "../evidence/operator.js";
import { leafInclusion } from "../evidence/inclusion.js";
import { isStub } from "../evidence/receipts.js";
import { earliest, type TimeSource } from "./judge.js";
import { witnessTimes } from "./witness-time.js";
import { hasWindows } from "./pinned.js";
import { callerAt, judgeReceiptKey, receiptKey } from "./service-window.js";

interface CheckpointTimes {
  /** Earliest independent time for the terminal checkpoint (cllCheckpoint). */
  readonly current?: TimeSource;
  /** Earliest independent time for the prior checkpoint. */
  readonly prior?: TimeSource;
}

/** Independent times for the checkpoints (witness cosignatures and receipts), --at left out. */
export function checkpointTimes(ctx: EvidenceContext): CheckpointTimes {
  return ctx.once("keys.checkpointTimes", () => {
    if (!hasWindows(ctx.trust)) return {};
    const parsed = manifestCheckpoint(ctx);
    // A checkpoint rebuilt from widened numbers is a reconstruction: nothing is placed in time by it.
    if (!parsed?.result.ok || parsed.narrowed) return {};
    const witnessed = witnessTimes(ctx, callerAt(ctx.options));
    return {
      ...optional("current", earliest([...witnessed.current, ...receiptTimes(ctx, parsed.result.value)])),
      ...optional("prior", earliest(witnessed.prior)),
    };
  });
}

function optional<K extends string>(k: K, t: TimeSource | undefined): { [P in K]?: TimeSource } {
  return (t === undefined ? {} : { [k]: t }) as { [P in K]?: TimeSource };
}

/** E for the terminal checkpoint: its independent times and --at. */
export function checkpointTime(ctx: EvidenceContext): TimeSource | undefined {
  return earliest([checkpointTimes(ctx).current, callerAt(ctx.options)]);
}

/** E for the prior checkpoint. */
export function priorCheckpointTime(ctx: EvidenceContext): TimeSource | undefined {
  return earliest([checkpointTimes(ctx).prior, callerAt(ctx.options)]);
}

/** E for the record: the checkpoint's times when its leaf is proven in it, and --at. */
export function recordTime(ctx: EvidenceContext): TimeSource | undefined {
  const cp = leafInclusion(ctx)?.ok === true ? checkpointTimes(ctx).current : undefined;
  return earliest([
    cp && { ...cp, source: `${cp.source}, which includes the record`, seconds: cp.seconds },
    callerAt(ctx.options),
  ]);
}

function receiptTimes(ctx: EvidenceContext, cp: Checkpoint): TimeSource[] {
  const services = ctx.trust?.transparencyServices;
  if (!services || services.size === 0) return [];
  const entryHash = checkpointEntryHash(cp);
  const at = callerAt(ctx.options);
  const out: TimeSource[] = [];
  (cp.witnesses ?? []).forEach((record: JsonValue, i) => {
    if (!isJsonObject(record) || isStub(record) || member(record, "entry_hash") !== entryHash) return;
    const url = member(record, "ts_url");
    const b64 = member(record, "receipt_b64");
    const service = typeof url === "string" ? services.get(url) : undefined;
    const bytes = typeof b64 === "string" ? base64ToBytesStrict(b64) : undefined;
    if (!service || !bytes || judgeOperator(ctx, service.keys, service.operator).label !== "independent") return;
    const checked = checkReceipt(bytes, hexToBytes(entryHash) as Uint8Array);
    if (!checked.ok || checked.value.proofCount !== 1) return;
    const iat = receiptIatOf(checked.value);
    const key = receiptKey(service, checked.value);
    if (iat === undefined || key === undefined) return;
    const judged = judgeReceiptKey(ctx.trust, service, key, { seconds: iat, source: "" }, at);
    if (judged !== undefined && judged.j.state !== "PASS") return;
    out.push({
      seconds: iat,
      source: `iat of the receipt from independent Transparency Service ${service.url} (${joinPath(CHECKPOINT_PATH, "witnesses", i)})`,
    });
  });
  return out;
}
