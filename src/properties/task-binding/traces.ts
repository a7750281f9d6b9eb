/**
 * Traceability traces in metadata (A2A Task Evidence §4.1; a2a-wire.md §5; docs/profile.md, v3.2
 * additions). Metadata is outside the payload's commitments, so a trace there is informational —
 * unless the capture policy includes it and the payload carries its digest in `traceDigests`:
 * `{holder: "task" | "message" | "artifact", id, traceDigest}`, where traceDigest =
 * hex(SHA-256(pyjson(the value under the Traceability key))). Then it is recomputed here.
 *
 *   trace.digest  per payload entry: the trace is where it says and hashes to its digest (FAIL
 *                 otherwise; INCONCLUSIVE when only a number a Struct widened explains the
 *                 difference, or the holder is not observed); per observed trace no entry names:
 *                 NOT_PRESENT, "informational, not covered by evidence"
 * A trace Artifact needs none of this: it is content, committed like any other Artifact.
 */
import { listCapped, showValue } from "../../json/diff.js";
import { isJsonObject, member, type JsonObject, type JsonValue } from "../../json/value.js";
import { isHex64 } from "../../util/bytes.js";
import type { A2ATask } from "../../input/a2a.js";
import { calleeCitations, metadataTraces, type MetadataTrace } from "../../input/trace.js";
import type { EvidenceContext } from "../../evidence/context.js";
import type { Check, State } from "../shared/types.js";
import type { CheckExtras } from "../shared/checks.js";
import { findNarrowing, widenedReason } from "../../evidence/widening.js";
import { holders } from "../../evidence/traces.js";

type Make = (id: "trace.digest", state: State, detail: string, extras?: CheckExtras) => Check;

const HOLDERS = ["task", "message", "artifact"] as const;
const ENTRY_MEMBERS = ["holder", "id", "traceDigest"];

function callees(trace: JsonValue): string {
  const cited = calleeCitations(trace);
  return cited.length > 0
    ? `; callee evidence cited (listed, never fetched or followed): ${listCapped(cited.map((c) => `${c.callee} → ${c.evidenceId}`))}`
    : "";
}

export function traceDigestChecks(ctx: EvidenceContext, payload: JsonObject, task: A2ATask, make: Make): Check[] {
  const observed = metadataTraces(task);
  const listed = member(payload, "traceDigests");
  // Indexed once: an entry is matched to its trace and its holder by one lookup each.
  const byHolder = new Map(observed.map((t) => [`${t.holder} ${t.id}`, t]));
  const present = listed === undefined ? new Set<string>() : holders(task);
  const checks: Check[] = [];
  const covered = new Set<MetadataTrace>();
  if (listed !== undefined) {
    if (!Array.isArray(listed))
      return [make("trace.digest", "FAIL", `taskEvidencePayload.traceDigests is not an array: ${showValue(listed)}`)];
    listed.forEach((entry, i) => {
      const subject = `traceDigests[${i}]`;
      const fault = entryFault(entry);
      if (fault) return void checks.push(make("trace.digest", "FAIL", fault, { subject }));
      const e = entry as JsonObject;
      const holder = member(e, "holder") as string;
      const id = member(e, "id") as string;
      const claimed = member(e, "traceDigest") as string;
      if (holder === "task" && id !== task.id) {
        return void checks.push(
          make(
            "trace.digest",
            "FAIL",
            `the payload commits to a Traceability trace on Task ${id}, not on this Task ${task.id}`,
            { subject },
          ),
        );
      }
      const trace = byHolder.get(`${holder} ${id}`);
      if (!trace) {
        checks.push(
          present.has(`${holder} ${id}`)
            ? make(
                "trace.digest",
                "FAIL",
                `the payload commits to a Traceability trace on ${holder} ${id}, which the observed Task carries without one`,
                { subject },
              )
            : make(
                "trace.digest",
                "INCONCLUSIVE",
                `the payload commits to a Traceability trace on ${holder} ${id}, which the observed Task does not show (history or artifacts may be incomplete)`,
                { subject },
              ),
        );
        return;
      }
      covered.add(trace);
      checks.push(digestCheck(ctx, trace, claimed, subject, make));
    });
  }
  for (const t of observed) {
    if (covered.has(t)) continue;
    checks.push(
      make(
        "trace.digest",
        "NOT_PRESENT",
        `the Traceability trace at ${t.path} is informational, not covered by evidence: the payload carries no digest of it${callees(t.value)}`,
        { subject: t.path },
      ),
    );
  }
  return checks;
}

function entryFault(entry: JsonValue): string | undefined {
  if (!isJsonObject(entry)) return "an entry is an object {holder, id, traceDigest}";
  const keys = Object.keys(entry);
  if (keys.length !== ENTRY_MEMBERS.length || !ENTRY_MEMBERS.every((m) => keys.includes(m)))
    return `an entry has exactly the members holder, id and traceDigest; this one has ${listCapped(keys)}`;
  const holder = member(entry, "holder");
  if (!(HOLDERS as readonly JsonValue[]).includes(holder ?? null))
    return `holder ${showValue(holder)} is not one of ${HOLDERS.join(", ")}`;
  if (typeof member(entry, "id") !== "string") return `id ${showValue(member(entry, "id"))} is not a string`;
  if (!isHex64(member(entry, "traceDigest")))
    return `traceDigest ${showValue(member(entry, "traceDigest"))} is not 64 lowercase hex`;
  return undefined;
}

function digestCheck(ctx: EvidenceContext, trace: MetadataTrace, claimed: string, subject: string, make: Make): Check {
  const r = ctx.pyjsonDigest(trace.value);
  if (!r.ok)
    return make("trace.digest", "FAIL", `the trace at ${trace.path} cannot be digested: ${r.detail}`, {
      subject,
      code: r.code,
    });
  const values = { traceDigest: claimed, recomputed: r.value.hex };
  if (r.value.hex === claimed)
    return make(
      "trace.digest",
      "PASS",
      `the Traceability trace at ${trace.path} hashes to the payload's traceDigest${callees(trace.value)}`,
      { subject, values },
    );
  // Metadata is a protobuf Struct: its numbers are doubles, and a Python emitter writes 3 as 3.0.
  const n = findNarrowing(trace.value, (candidate) => {
    const d = ctx.pyjsonDigest(candidate);
    return d.ok && d.value.hex === claimed;
  });
  if (n.kind === "match")
    return make("trace.digest", "INCONCLUSIVE", `the trace at ${trace.path} ${widenedReason("metadata", n.narrowed)}`, {
      subject,
      values,
    });
  if (n.kind === "tooMany")
    return make(
      "trace.digest",
      "INCONCLUSIVE",
      `the trace at ${trace.path} does not hash to the payload's traceDigest, and ${n.reason}`,
      { subject, values },
    );
  return make(
    "trace.digest",
    "FAIL",
    `the Traceability trace at ${trace.path} hashes to ${r.value.hex}, not to the payload's traceDigest ${claimed}: changed since it was sealed`,
    { subject, values },
  );
}
