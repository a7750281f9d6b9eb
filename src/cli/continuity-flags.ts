/**
 * The verify command's continuity flags: their options, and reading the files they name into
 * what verify() takes. An unreadable or malformed file exits 2, like --trust and --task: a
 * caller's file that cannot be used must not silently turn into "no cosignatures". (`--at`, the
 * time cosignature timestamps are checked against, is the verify command's own flag.)
 *
 *   --cosignatures <file>  cosignature lines the caller brings, each entry naming its note
 *   --checkpoints <file>   CLL checkpoints seen before, compared with the inputs' (a fork across runs);
 *                          repeatable, every file's checkpoints take part
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import { parseStrictJson } from "../json/strict-json.js";
import type { JsonValue } from "../json/value.js";
import type { Checkpoint } from "../log/checkpoint.js";
import { parseSeenCheckpoints } from "../witness/equivocation.js";
import { parseCosignatureFile } from "../witness/evidence.js";
import type { Failure, Result } from "../result.js";
import { readInput, type ReadResult } from "./read.js";
import { errorText, flagFileName } from "./error-summary.js";

export interface ContinuityFlags {
  readonly cosignatures?: string;
  /** One file, or each --checkpoints file given (the option collects them). */
  readonly checkpoints?: string | readonly string[];
}

/** What the flags give verify(): `cosignatures` for VerifyRequest, `checkpoints` for the comparison. */
export interface ContinuityRequest {
  readonly cosignatures?: JsonValue;
  readonly checkpoints?: readonly Checkpoint[];
}

/** A file that cannot be used: one message for stderr, exit 2. */
export type ContinuityFlagsResult =
  { readonly ok: true; readonly value: ContinuityRequest } | { readonly ok: false; readonly message: string };

export function addContinuityOptions(command: Command): Command {
  return command
    .addOption(
      // Once: a second file would silently replace the first, and with it a forged line that FAILs.
      new Option(
        "--cosignatures <file>",
        "C2SP cosignature lines for the inputs' checkpoints (JSON: [{type, note, lines}])",
      ).argParser((file: string, previous: string | undefined) => {
        if (previous !== undefined)
          throw new InvalidArgumentError("given twice: put every entry in one file (each entry names its note)");
        return file;
      }),
    )
    .addOption(
      // Repeatable: a second file adds checkpoints, it never replaces the first (whose fork would go unseen).
      new Option(
        "--checkpoints <file>",
        "CLL checkpoints seen before (JSON array), compared with the inputs' to detect a fork (repeatable)",
      ).argParser((file: string, previous: readonly string[] | undefined) => [...(previous ?? []), file]),
    );
}

/**
 * Reads and parses the file a flag names; any failure is one message naming the flag and the file
 * as every caller's file is named (`--cosignatures c.json: INPUT_UNREADABLE: no such file`).
 */
async function readFile<T>(
  path: string,
  flag: string,
  parse: (v: JsonValue) => Result<T>,
  read: (path: string) => Promise<ReadResult>,
): Promise<{ ok: true; value: T; json: JsonValue } | { ok: false; message: string }> {
  const named = flagFileName(flag, path);
  const r = await read(path);
  if (!r.ok) return { ok: false, message: errorText(named, { code: "INPUT_UNREADABLE", message: r.reason }) };
  const refused = (f: Failure) => ({
    ok: false as const,
    message: errorText(named, { code: f.code, message: f.detail, ...(f.path ? { path: f.path } : {}) }),
  });
  const json = parseStrictJson(r.bytes);
  if (!json.ok) return refused(json);
  const parsed = parse(json.value);
  if (!parsed.ok) return refused(parsed);
  return { ok: true, value: parsed.value, json: json.value };
}

export async function readContinuityFlags(
  flags: ContinuityFlags,
  read: (path: string) => Promise<ReadResult> = readInput,
): Promise<ContinuityFlagsResult> {
  let cosignatures: JsonValue | undefined;
  if (flags.cosignatures !== undefined) {
    const file = await readFile(flags.cosignatures, "--cosignatures", (v) => parseCosignatureFile(v), read);
    if (!file.ok) return file;
    cosignatures = file.json;
  }
  let checkpoints: Checkpoint[] | undefined;
  const files = typeof flags.checkpoints === "string" ? [flags.checkpoints] : (flags.checkpoints ?? []);
  for (const path of files) {
    const file = await readFile(path, "--checkpoints", parseSeenCheckpoints, read);
    if (!file.ok) return file;
    checkpoints = [...(checkpoints ?? []), ...file.value];
  }
  return {
    ok: true,
    value: {
      ...(cosignatures !== undefined ? { cosignatures } : {}),
      ...(checkpoints !== undefined ? { checkpoints } : {}),
    },
  };
}
