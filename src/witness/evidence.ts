/**
 * Where cosignature lines travel (continuity-witness.md §4.2 A.2). Lines are self-authenticating,
 * so they need no trust in their carrier and sit outside the manifest (not under
 * coreManifestDigest): a producer may append them after sealing, a caller may bring them.
 *
 *   bundle.continuityEvidence  [{"type": "c2sp-cosignature/v1", "checkpoint": "current" | "prior",
 *                                "lines": ["— <name> <base64>", …]}, …]
 *   --cosignatures FILE        [{"type": "c2sp-cosignature/v1", "note": "<note text>",
 *                                "lines": [ … ]}, …]
 *
 * A file is not bound to one bundle, so its entries name the note they cosign; an entry counts for
 * an input only when its note is byte for byte the note the verifier renders from that input's
 * checkpoint. Lines are never taken from inside `cllCheckpoint.witnesses[]`, whose entries are
 * receipts.
 *
 * Strict like every reader here: exact members, one type per member, caps on entries, lines and
 * their length. An entry of another `type` is kept aside and reported, not guessed at.
 */
import { joinPath } from "../json/path.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json/value.js";
import { fail, ok, type Result } from "../result.js";

export const COSIGNATURE_EVIDENCE_TYPE = "c2sp-cosignature/v1";
/** Verifiers must accept at least 16 signatures per note (signed-note); Go refuses more than 100. */
export const MAX_LINES_PER_CHECKPOINT = 64;
export const MAX_ENTRIES = 64;
/** A cosignature/v1 line is ~130 characters; an ML-DSA-44 one ~3 300. */
export const MAX_LINE_LENGTH = 4096;
export const MAX_NOTE_LENGTH = 4096;

export type CheckpointRole = "current" | "prior";

export interface CarriedLine {
  readonly role: CheckpointRole;
  readonly line: string;
  /** Where the line was found: `continuityEvidence[0].lines[1]`, `--cosignatures[2].lines[0]`. */
  readonly path: string;
}

export interface UnsupportedEntry {
  readonly path: string;
  readonly type: string;
}

export interface CarriedEvidence {
  readonly lines: readonly CarriedLine[];
  readonly unsupported: readonly UnsupportedEntry[];
}

export interface CosignatureFileEntry {
  readonly note: string;
  readonly lines: readonly string[];
  readonly path: string;
}

export interface CosignatureFile {
  readonly entries: readonly CosignatureFileEntry[];
  readonly unsupported: readonly UnsupportedEntry[];
}

const malformed = (detail: string, path: string) => fail("COSIGNATURE_EVIDENCE_MALFORMED", detail, path);

/**
 * Common to both carriers: an array of entries, each an object with a string `type`; entries of
 * our type must have exactly `members` and are handed to `read`, the others are set aside.
 */
function readEntries(
  v: JsonValue,
  path: string,
  members: readonly string[],
  read: (e: JsonObject, at: string) => Result<true>,
): Result<UnsupportedEntry[]> {
  if (!Array.isArray(v)) return malformed("continuity evidence is an array of entries", path);
  if (v.length > MAX_ENTRIES) return malformed(`${v.length} entries; at most ${MAX_ENTRIES} are read`, path);
  const unsupported: UnsupportedEntry[] = [];
  for (const [i, e] of v.entries()) {
    const at = joinPath(path, i);
    if (!isJsonObject(e)) return malformed("an entry is an object", at);
    if (typeof e.type !== "string") return malformed('an entry has a string "type"', at);
    if (e.type !== COSIGNATURE_EVIDENCE_TYPE) {
      unsupported.push({ path: at, type: e.type });
      continue;
    }
    const extra = Object.keys(e).find((k) => !members.includes(k));
    if (extra !== undefined) return malformed(`unknown member ${JSON.stringify(extra)}`, joinPath(at, extra));
    const missing = members.find((k) => !Object.hasOwn(e, k));
    if (missing !== undefined) return malformed(`member ${JSON.stringify(missing)} is missing`, at);
    const r = read(e, at);
    if (!r.ok) return r;
  }
  return ok(unsupported);
}

function linesOf(v: JsonValue | undefined, path: string): Result<string[]> {
  if (!Array.isArray(v)) return malformed("lines is an array of strings", path);
  if (v.length > MAX_LINES_PER_CHECKPOINT)
    return malformed(`${v.length} lines; at most ${MAX_LINES_PER_CHECKPOINT} per checkpoint are read`, path);
  for (const [i, line] of v.entries()) {
    if (typeof line !== "string") return malformed("a line is a string", joinPath(path, i));
    if (line.length > MAX_LINE_LENGTH)
      return malformed(`a line of ${line.length} characters; at most ${MAX_LINE_LENGTH}`, joinPath(path, i));
  }
  return ok(v as string[]);
}

/** `bundle.continuityEvidence`, at `path`. */
export function parseContinuityEvidence(v: JsonValue, path: string): Result<CarriedEvidence> {
  const lines: CarriedLine[] = [];
  const perRole = { current: 0, prior: 0 };
  const unsupported = readEntries(v, path, ["type", "checkpoint", "lines"], (e, at) => {
    const role = e.checkpoint;
    if (role !== "current" && role !== "prior")
      return malformed('checkpoint is "current" or "prior"', joinPath(at, "checkpoint"));
    const ls = linesOf(e.lines, joinPath(at, "lines"));
    if (!ls.ok) return ls;
    perRole[role] += ls.value.length;
    // The cap is per checkpoint, not per entry: splitting lines over entries must not lift it.
    if (perRole[role] > MAX_LINES_PER_CHECKPOINT)
      return malformed(`more than ${MAX_LINES_PER_CHECKPOINT} lines for the ${role} checkpoint`, joinPath(at, "lines"));
    ls.value.forEach((line, j) => lines.push({ role, line, path: joinPath(at, "lines", j) }));
    return ok(true);
  });
  return unsupported.ok ? ok({ lines, unsupported: unsupported.value }) : unsupported;
}

/** A `--cosignatures` file, parsed; `path` names it in diagnostics. */
export function parseCosignatureFile(v: JsonValue, path = "--cosignatures"): Result<CosignatureFile> {
  const entries: CosignatureFileEntry[] = [];
  const perNote = new Map<string, number>();
  const unsupported = readEntries(v, path, ["type", "note", "lines"], (e, at) => {
    const note = e.note;
    if (typeof note !== "string" || note.length > MAX_NOTE_LENGTH)
      return malformed(
        `note is the note text (a string of at most ${MAX_NOTE_LENGTH} characters)`,
        joinPath(at, "note"),
      );
    const ls = linesOf(e.lines, joinPath(at, "lines"));
    if (!ls.ok) return ls;
    const count = (perNote.get(note) ?? 0) + ls.value.length;
    if (count > MAX_LINES_PER_CHECKPOINT)
      return malformed(`more than ${MAX_LINES_PER_CHECKPOINT} lines for one note`, joinPath(at, "lines"));
    perNote.set(note, count);
    entries.push({ note, lines: ls.value, path: at });
    return ok(true);
  });
  return unsupported.ok ? ok({ entries, unsupported: unsupported.value }) : unsupported;
}

export interface MatchedFileLines {
  readonly lines: readonly CarriedLine[];
  /** Entries whose note is neither checkpoint's: about another input, or another log. */
  readonly otherNotes: number;
}

/** The file's lines for this input's notes (undefined when a note cannot be rendered). */
export function fileLinesFor(
  file: CosignatureFile,
  notes: Readonly<Record<CheckpointRole, string | undefined>>,
): MatchedFileLines {
  const lines: CarriedLine[] = [];
  let otherNotes = 0;
  for (const entry of file.entries) {
    const role: CheckpointRole | undefined =
      entry.note === notes.current ? "current" : entry.note === notes.prior ? "prior" : undefined;
    if (role === undefined) {
      otherNotes++;
      continue;
    }
    entry.lines.forEach((line, j) => lines.push({ role, line, path: joinPath(entry.path, "lines", j) }));
  }
  return { lines, otherNotes };
}
