/**
 * `a2a-evidence vectors [DIR...]`: runs conformance vector folders and says which match.
 *
 * A vector folder holds the verifier input (`input.json`, `input.sse`, `input.ndjson`, or gRPC's
 * `input.binpb` or `input.grpc`), the
 * caller's trust file (`trust.json`, optional), further `verify` arguments (`args.json`, optional:
 * a JSON array such as `["--min-evidence", "NONE"]`, file paths relative to the folder) and what
 * verification must give (`expected.json`: `exitCode`, the state of each listed property, and the
 * achieved `evidenceLevel`). A DIR is one vector folder (it holds `expected.json`) or a folder of
 * them; with none, the vectors shipped in the package run. Exit 0 when every vector matches, 1
 * when one does not, 2 when a folder cannot be run as a vector (unreadable, missing or malformed
 * files): a vector that cannot run never counts as one that matched.
 *
 * Like `verify`, this layer reads files; the verification itself is the pure `verify()`.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Option, type Command } from "commander";
import { parseStrictJson } from "../json/strict-json.js";
import { isJsonObject, asSafeInteger, type JsonValue } from "../json/value.js";
import { EVIDENCE_LEVELS, type EvidenceLevelOrNone } from "../profile.js";
import { PROPERTY_NAMES, isPropertyName, type PropertyName } from "../properties/index.js";
import { STATES, isFailedInput, TOOL, type Report, type State } from "../report/model.js";
import { makeStyle } from "../report/style.js";
import { verify, type VerifyRequest } from "../verify.js";
import { printable, printableJson, printableLineStart } from "../util/printable.js";
import { readInput } from "./read.js";
import { onlyOnce, wrapHelp, type CliIo, type CommandContext } from "./io.js";
import { atProblem } from "./at-option.js";

export interface VectorDifference {
  /** `exitCode`, `evidenceLevel`, or a property name. */
  readonly what: string;
  readonly expected: string;
  readonly got: string;
}

export interface VectorResult {
  readonly name: string;
  readonly path: string;
  readonly result: "match" | "mismatch" | "error";
  readonly differences: readonly VectorDifference[];
  /** Why the folder could not be run as a vector (result `error`). */
  readonly error?: string;
}

export interface VectorsReport {
  readonly vectorsReportVersion: 1;
  readonly tool: { readonly name: "a2a-evidence"; readonly version: string };
  readonly vectors: readonly VectorResult[];
  readonly summary: {
    readonly total: number;
    readonly match: number;
    readonly mismatch: number;
    readonly error: number;
  };
  readonly exitCode: 0 | 1 | 2;
}

const INPUT_FILES = ["input.json", "input.sse", "input.ndjson", "input.binpb", "input.grpc"] as const;
const LEVELS: readonly EvidenceLevelOrNone[] = ["NONE", ...EVIDENCE_LEVELS];

/**
 * The `vectors/` folder of the package this module belongs to: found by walking up from the
 * module's own file to the package root, so it holds for `src/cli/`, `dist/cli/` and the bundled
 * `dist/a2a-evidence.cjs` alike.
 */
export function shippedVectorsDir(): string {
  let dir = dirname(modulePath());
  for (;;) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "vectors"))) return join(dir, "vectors");
    const up = dirname(dir);
    if (up === dir) return join(dirname(modulePath()), "..", "..", "vectors");
    dir = up;
  }
}

/** This module's file: `__filename` in the CommonJS bundle, `import.meta.url` as an ES module. */
function modulePath(): string {
  return typeof __filename === "string" ? __filename : fileURLToPath(import.meta.url);
}

class FolderError extends Error {}

interface Expected {
  readonly exitCode: number;
  readonly properties: ReadonlyMap<PropertyName, State>;
  readonly evidenceLevel?: EvidenceLevelOrNone;
}

interface Got {
  readonly exitCode: number;
  /** Absent when the input could not be verified; the error says why. */
  readonly properties?: Readonly<Record<PropertyName, State>>;
  readonly evidenceLevel?: EvidenceLevelOrNone;
  readonly error?: string;
}

async function readFile(folder: string, name: string): Promise<Uint8Array> {
  const r = await readInput(join(folder, name));
  if (!r.ok)
    throw new FolderError(r.message.startsWith(folder) ? `${name}: ${r.message.slice(folder.length + 1)}` : r.message);
  return r.bytes;
}

async function readJson(folder: string, name: string): Promise<JsonValue> {
  const parsed = parseStrictJson(await readFile(folder, name));
  if (!parsed.ok)
    throw new FolderError(`${name}: not strict JSON: ${parsed.detail} at ${parsed.path} (${parsed.code})`);
  return parsed.value;
}

function readExpected(v: JsonValue): Expected {
  if (!isJsonObject(v)) throw new FolderError("expected.json: not a JSON object");
  const exitCode = asSafeInteger(v.exitCode);
  if (exitCode === undefined || exitCode < 0 || exitCode > 3)
    throw new FolderError("expected.json: exitCode must be 0, 1, 2 or 3");
  const properties = new Map<PropertyName, State>();
  const listed = v.properties;
  if (listed !== undefined && listed !== null) {
    if (!isJsonObject(listed)) throw new FolderError("expected.json: properties must be an object");
    for (const name of Object.keys(listed)) {
      const state = listed[name];
      if (!isPropertyName(name)) throw new FolderError(`expected.json: unknown property "${name}"`);
      if (!(STATES as readonly unknown[]).includes(state))
        throw new FolderError(`expected.json: properties.${name} is not one of ${STATES.join(", ")}`);
      properties.set(name as PropertyName, state as State);
    }
  }
  const level = v.evidenceLevel;
  if (level !== undefined && level !== null && !(LEVELS as readonly unknown[]).includes(level)) {
    throw new FolderError(`expected.json: evidenceLevel must be one of ${LEVELS.join(", ")}`);
  }
  return {
    exitCode,
    properties,
    ...(typeof level === "string" ? { evidenceLevel: level as EvidenceLevelOrNone } : {}),
  };
}

type ArgKind = "file" | "text" | "properties" | "level" | "time";
type ArgKey = "task" | "firstTask" | "authority" | "tenant" | "require" | "minEvidence" | "at";
const ARGS: Readonly<Record<string, { readonly key: ArgKey; readonly kind: ArgKind }>> = {
  "--task": { key: "task", kind: "file" },
  "--first-task": { key: "firstTask", kind: "file" },
  "--authority": { key: "authority", kind: "text" },
  "--tenant": { key: "tenant", kind: "text" },
  "--require": { key: "require", kind: "properties" },
  "--min-evidence": { key: "minEvidence", kind: "level" },
  "--at": { key: "at", kind: "time" },
};

/** A path named in args.json, inside the folder: a vector from elsewhere must not read the rest of the disk. */
function fileInFolder(folder: string, path: string): string {
  const rel = normalize(path);
  if (isAbsolute(path) || rel === ".." || rel.startsWith(`..${sep}`))
    throw new FolderError(`args.json: ${path} is not a path inside the vector folder`);
  return relative(folder, resolve(folder, rel));
}

/** The `verify` options args.json gives, with the files it names read. */
async function readArgs(folder: string, v: JsonValue): Promise<Partial<VerifyRequest>> {
  if (!Array.isArray(v)) throw new FolderError("args.json: not a JSON array of arguments");
  const out: Record<string, unknown> = {};
  for (let i = 0; i < v.length; i++) {
    const arg = v[i];
    if (typeof arg !== "string") throw new FolderError(`args.json[${i}]: not a string`);
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const spec = ARGS[name];
    if (spec === undefined) {
      throw new FolderError(
        `args.json: unsupported argument ${JSON.stringify(arg)} (allowed: ${Object.keys(ARGS).join(", ")}; the trust file is trust.json)`,
      );
    }
    let value: string;
    if (name !== arg) value = arg.slice(eq + 1);
    else {
      const next = v[++i];
      if (typeof next !== "string") throw new FolderError(`args.json: ${name} needs a value`);
      value = next;
    }
    if (spec.key in out) throw new FolderError(`args.json: ${name} is given twice`);
    switch (spec.kind) {
      case "file":
        out[spec.key] = await readFile(folder, fileInFolder(folder, value));
        break;
      case "text":
        out[spec.key] = value;
        break;
      case "properties": {
        const names = value
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s !== "");
        const unknown = names.find((n) => !isPropertyName(n));
        if (unknown !== undefined) throw new FolderError(`args.json: --require: unknown property "${unknown}"`);
        out[spec.key] = names;
        break;
      }
      case "time": {
        const problem = atProblem(value);
        if (problem !== undefined) throw new FolderError(`args.json: --at: ${problem}`);
        out[spec.key] = value;
        break;
      }
      case "level":
        if (!(LEVELS as readonly string[]).includes(value))
          throw new FolderError(`args.json: --min-evidence: unknown level "${value}" (known: ${LEVELS.join(", ")})`);
        out[spec.key] = value;
        break;
    }
  }
  return out as Partial<VerifyRequest>;
}

function gotOf(report: Report): Got {
  const input = report.inputs[0];
  if (report.error || input === undefined) {
    return {
      exitCode: report.policy.exitCode,
      error: report.error ? `${report.error.code}: ${report.error.message}` : "no input was verified",
    };
  }
  if (isFailedInput(input)) {
    const at = input.error.path ? ` (at ${input.error.path})` : "";
    return { exitCode: input.exitCode, error: `${input.error.code}: ${input.error.message}${at}` };
  }
  const properties = Object.fromEntries(PROPERTY_NAMES.map((p) => [p, input.properties[p].state])) as Record<
    PropertyName,
    State
  >;
  return { exitCode: report.policy.exitCode, properties, evidenceLevel: input.evidenceLevel.achieved };
}

/** Each listed property first, then the level, then the exit code. */
function compare(expected: Expected, got: Got): VectorDifference[] {
  const out: VectorDifference[] = [];
  if (got.properties === undefined) {
    if (expected.properties.size > 0 || expected.evidenceLevel !== undefined) {
      out.push({
        what: "properties",
        expected: `${expected.properties.size} listed`,
        got: `none: the input was not verified${got.error && expected.exitCode === got.exitCode ? ` (${got.error})` : ""}`,
      });
    }
  } else {
    for (const [name, state] of expected.properties) {
      if (got.properties[name] !== state) out.push({ what: name, expected: state, got: got.properties[name] });
    }
    if (expected.evidenceLevel !== undefined && expected.evidenceLevel !== got.evidenceLevel) {
      out.push({ what: "evidenceLevel", expected: expected.evidenceLevel, got: got.evidenceLevel ?? "none" });
    }
  }
  if (expected.exitCode !== got.exitCode) {
    out.push({
      what: "exitCode",
      expected: String(expected.exitCode),
      got: got.error ? `${got.exitCode} (${got.error})` : String(got.exitCode),
    });
  }
  return out;
}

/** Runs one vector folder. */
export async function runVectorFolder(path: string, name = basename(path)): Promise<VectorResult> {
  try {
    const inputs = INPUT_FILES.filter((f) => existsSync(join(path, f)));
    if (inputs.length !== 1) {
      throw new FolderError(
        inputs.length === 0
          ? `no input file (${INPUT_FILES.join(", ")})`
          : `more than one input file (${inputs.join(", ")})`,
      );
    }
    const inputFile = inputs[0] as string;
    const expected = readExpected(await readJson(path, "expected.json"));
    const args = existsSync(join(path, "args.json")) ? await readArgs(path, await readJson(path, "args.json")) : {};
    const trust = existsSync(join(path, "trust.json")) ? { trust: await readFile(path, "trust.json") } : {};
    // verify() reads every input framing itself: JSON, SSE, NDJSON.
    const got = gotOf(
      verify({
        ...args,
        ...trust,
        inputs: [{ source: `${name}/${inputFile}`, data: await readFile(path, inputFile) }],
      }),
    );
    const differences = compare(expected, got);
    return { name, path, result: differences.length === 0 ? "match" : "mismatch", differences };
  } catch (e) {
    if (!(e instanceof FolderError)) throw e;
    return { name, path, result: "error", differences: [], error: e.message };
  }
}

/** The vector folders a DIR names: itself when it holds expected.json, else each of its subfolders. */
function foldersOf(dir: string): { name: string; path: string; error?: string }[] {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    return [{ name: basename(dir), path: dir, error: "no such folder" }];
  }
  if (!isDir) return [{ name: basename(dir), path: dir, error: "not a folder" }];
  if (existsSync(join(dir, "expected.json"))) return [{ name: basename(resolve(dir)), path: dir }];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => !n.startsWith(".") && statSync(join(dir, n)).isDirectory());
  } catch (e) {
    return [
      { name: basename(dir), path: dir, error: `cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})` },
    ];
  }
  if (names.length === 0)
    return [
      { name: basename(resolve(dir)), path: dir, error: "holds no vector folder (no expected.json, no subfolder)" },
    ];
  // Every subfolder of a folder of vectors is a vector: one without expected.json is reported, not skipped.
  return names.sort().map((n) => ({ name: n, path: join(dir, n) }));
}

/** Runs every vector the DIRs name (default: the shipped vectors), in order. */
export async function runVectors(dirs: readonly string[]): Promise<VectorsReport> {
  const vectors: VectorResult[] = [];
  for (const dir of dirs.length > 0 ? dirs : [shippedVectorsDir()]) {
    for (const f of foldersOf(dir)) {
      vectors.push(
        f.error !== undefined
          ? { name: f.name, path: f.path, result: "error", differences: [], error: f.error }
          : await runVectorFolder(f.path, f.name),
      );
    }
  }
  const count = (r: VectorResult["result"]) => vectors.filter((v) => v.result === r).length;
  const summary = { total: vectors.length, match: count("match"), mismatch: count("mismatch"), error: count("error") };
  const exitCode = summary.error > 0 ? 2 : summary.mismatch > 0 ? 1 : 0;
  return { vectorsReportVersion: 1, tool: TOOL, vectors, summary, exitCode };
}

function describeDifference(d: VectorDifference): string {
  return d.what === "exitCode"
    ? `exit code: expected ${d.expected}, got ${d.got}`
    : `${d.what}: expected ${d.expected}, got ${d.got}`;
}

/** One row per vector, then the counts. */
export function renderVectorsText(report: VectorsReport, color = false): string {
  const style = makeStyle(color);
  // A folder's name and what its files say are its author's text: made printable before the
  // colour codes go in.
  const names = report.vectors.map((v) => printableLineStart(v.name));
  const width = Math.max(6, ...names.map((n) => n.length));
  const rows = report.vectors.map((v, k) => {
    const name = (names[k] as string).padEnd(width);
    if (v.result === "match") return `${name}  ${style.state("PASS", "match")}`;
    if (v.result === "error") return `${name}  ${style.state("FAIL", "ERROR")}     ${printable(v.error ?? "")}`;
    return `${name}  ${style.state("FAIL", "MISMATCH")}  ${printable(v.differences.map(describeDifference).join("; "))}`;
  });
  const s = report.summary;
  const total = `${s.total} vector${s.total === 1 ? "" : "s"}: ${s.match} match, ${s.mismatch} mismatch, ${s.error} error${s.error === 1 ? "" : "s"}`;
  return `${[`${"vector".padEnd(width)}  result`, ...rows, style.bold(total)].join("\n")}\n`;
}

/** schemas/vectors-report.schema.json */
export function renderVectorsJson(report: VectorsReport): string {
  return `${printableJson(JSON.stringify(report, null, 2))}\n`;
}

interface VectorsFlags {
  format: "text" | "json";
  color: boolean;
}

/** The command's work: run, print, and return the exit code. */
export async function runVectorsCommand(dirs: readonly string[], flags: VectorsFlags, io: CliIo): Promise<number> {
  const report = await runVectors(dirs);
  for (const v of report.vectors)
    if (v.result === "error") io.stderr(`a2a-evidence: vectors: ${printable(`${v.path}: ${v.error}`)}\n`);
  const color = flags.format === "text" && flags.color && io.stdoutIsTTY && !io.env.NO_COLOR;
  io.stdout(flags.format === "json" ? renderVectorsJson(report) : renderVectorsText(report, color));
  return report.exitCode;
}

export function registerVectorsCommand(program: Command, { io, setExit }: CommandContext): void {
  const command = program
    .command("vectors")
    .summary("run conformance vectors and print which match")
    .description(
      "run conformance vector folders (input, trust, optional args, expected states and exit code) and print which match",
    )
    .argument("[dir...]", "a vector folder or a folder of them (default: the vectors shipped with this package)")
    .addOption(new Option("--format <format>", "report format").choices(["text", "json"]).default("text"))
    .option("--no-color", "no colour (also: NO_COLOR, non-TTY stdout, --format json)")
    .addHelpText(
      "after",
      wrapHelp(
        "\nExit codes: 0 every vector matches · 1 some vector does not match · 2 a vector folder is unreadable or malformed",
      ),
    )
    .action(async (dirs: string[], flags: VectorsFlags) => {
      setExit(await runVectorsCommand(dirs, flags, io));
    });
  onlyOnce(command, ["--format"]);
}
