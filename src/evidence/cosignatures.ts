/**
 * The continuity witness cosignatures an input carries (log-and-receipts.md §4; contract §9.40):
 * the bundle's `continuityEvidence` lines, the caller's --cosignatures file and the lines of it
 * that cosign this input's checkpoints, and what is wrong with either carrier. continuity judges
 * them; inspect shows each line against the note it cosigns.
 */
import { member, type JsonValue } from "../json/value.js";
import { parseStrictJson } from "../json/strict-json.js";
import type { Checkpoint } from "../log/checkpoint.js";
import { fail, type Result } from "../result.js";
import type { FailureCode } from "../codes/index.js";
import type { TrustedWitness } from "../trust/config.js";
import { renderCllNote } from "../witness/cll-note.js";
import {
  fileLinesFor,
  parseContinuityEvidence,
  parseCosignatureFile,
  type CarriedLine,
  type CosignatureFile,
  type UnsupportedEntry,
} from "../witness/evidence.js";
import type { EvidenceContext } from "./context.js";
import { manifestCheckpoint, priorCheckpoint } from "./manifest-checkpoint.js";

/** Where a bundle carries its cosignature lines. */
export const EVIDENCE_PATH = "continuityEvidence";

function present(v: JsonValue | undefined): v is JsonValue {
  return v !== undefined && v !== null;
}

/** A carrier that cannot be read as cosignature lines. */
export interface CarrierProblem {
  readonly state: "FAIL" | "INCONCLUSIVE";
  readonly detail: string;
  readonly subject: string;
  readonly code: FailureCode;
}

/** How a report names a trust-file witness. */
export function labelOf(w: TrustedWitness): string {
  return w.id ?? w.name;
}

export interface Carried {
  readonly lines: CarriedLine[];
  readonly fromBundle: number;
  readonly unsupported: UnsupportedEntry[];
  /** What is wrong with the carriers themselves: a FAIL or an INCONCLUSIVE `cosignature.evidence`. */
  readonly problems: CarrierProblem[];
  readonly otherNotes: number;
}

/**
 * The lines this input carries for its own checkpoints, read once: with a checkpoint that parses,
 * for it and the prior checkpoint; with a malformed one, the bundle's lines and no file line.
 */
export function carriedOf(ctx: EvidenceContext): Carried {
  return ctx.once("carried", () => {
    const cp = manifestCheckpoint(ctx)?.result;
    return cp?.ok
      ? carriedEvidence(ctx, cp.value, priorCheckpoint(ctx) ?? null)
      : carriedEvidence(ctx, undefined, null);
  });
}

/** The bundle's lines, and the --cosignatures file's lines whose note is this input's. */
export function carriedEvidence(
  ctx: EvidenceContext,
  current: Checkpoint | undefined,
  prior: Checkpoint | null,
): Carried {
  const out: Carried = { lines: [], fromBundle: 0, unsupported: [], problems: [], otherNotes: 0 };
  const raw = member(ctx.bundle, EVIDENCE_PATH);
  let fromBundle = 0;
  if (present(raw) && !(Array.isArray(raw) && raw.length === 0)) {
    const r = parseContinuityEvidence(raw, EVIDENCE_PATH);
    if (!r.ok) {
      out.problems.push({
        state: "FAIL",
        detail: `continuityEvidence is malformed: ${r.detail}${r.path ? ` at ${r.path}` : ""}`,
        subject: EVIDENCE_PATH,
        code: r.code,
      });
    } else {
      out.lines.push(...r.value.lines);
      out.unsupported.push(...r.value.unsupported);
      fromBundle = r.value.lines.length;
    }
  }
  let otherNotes = 0;
  const file = cosignatureFile(ctx);
  if (file !== undefined) {
    if (!file.ok) {
      out.problems.push({
        state: "INCONCLUSIVE",
        detail: `the --cosignatures content cannot be used: ${file.detail}${file.path ? ` at ${file.path}` : ""}`,
        subject: "--cosignatures",
        code: file.code,
      });
    } else {
      const note = (cp: Checkpoint | null | undefined) => {
        const n = cp ? renderCllNote(cp) : undefined;
        return n?.ok ? n.value.text : undefined;
      };
      const matched = fileLinesFor(file.value, { current: note(current), prior: note(prior) });
      out.lines.push(...matched.lines);
      otherNotes = matched.otherNotes;
      // Entries of an unknown type in the file may be about any input; they are reported only
      // where something of this input's is there too.
      if (matched.lines.length > 0) out.unsupported.push(...file.value.unsupported);
    }
  }
  return { ...out, fromBundle, otherNotes };
}

/** The --cosignatures content the caller brought, parsed once per input; undefined when none was. */
export function cosignatureFile(ctx: EvidenceContext): Result<CosignatureFile> | undefined {
  const given = ctx.options.cosignatures;
  if (given === undefined) return undefined;
  return ctx.once("cosignatureFile", () => {
    let value: JsonValue;
    if (typeof given === "string" || given instanceof Uint8Array) {
      const parsed = parseStrictJson(given);
      if (!parsed.ok)
        return fail(
          "COSIGNATURE_EVIDENCE_MALFORMED",
          `not strict JSON: ${parsed.detail} (${parsed.code})`,
          parsed.path,
        );
      value = parsed.value;
    } else {
      value = given;
    }
    return parseCosignatureFile(value);
  });
}
