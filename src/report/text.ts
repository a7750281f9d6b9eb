/**
 * The text report: per input, one line per property (symbol, name, state, detail), then the
 * evidence level and the exit reason; with verbose, every check with the values it compared.
 * Every string that came from the input is made printable first (`t`): a terminal must never
 * receive the input's control characters or bidirectional overrides.
 *
 * The report fits its width (contract §9.37: the terminal's on a TTY, else 100 columns): hashes
 * and keys are shortened to their first 12 hex digits with an ellipsis (`-v` keeps them whole),
 * and a long detail wraps at spaces, its next lines starting under its column. The closing exit
 * line of an input and of a run stays one line, so a CI log can be searched for it.
 */
import {
  PROPERTY_NAMES,
  isFailedInput,
  type Check,
  type InputReport,
  type PropertyName,
  type Report,
  type State,
  type VerifiedInput,
} from "./model.js";
import type { Style } from "./style.js";
import type { RenderOptions } from "./options.js";
import { printableField as t, printableLineStart } from "../util/printable.js";
import { MAX_LISTED } from "../json/diff.js";
import { summarize, type Summary, type Tally } from "./summary.js";

const SYMBOL: Record<State, string> = {
  PASS: "✔",
  FAIL: "✘",
  INCONCLUSIVE: "?",
  NOT_CHECKED: "–",
  NOT_PRESENT: "○",
};

export function renderText(report: Report, options: RenderOptions): string {
  if (report.error)
    return `error: ${report.error.code}: ${t(report.error.message)}${report.error.path ? ` at ${t(report.error.path)}` : ""}\n`;
  if (report.inputs.length === 0) return "\n";
  const tally = summarize(report.inputs);
  return report.inputs.map((input, k) => textInput(input, k, options)).join("") + textTail(tally, options);
}

/** One input's block, as the streaming CLI writes it: a blank line before every block but the first. */
export function textInput(input: InputReport, index: number, options: RenderOptions): string {
  return `${index > 0 ? "\n" : ""}${renderInput(input, options).join("\n")}\n`;
}

/** After the last input: with several, the summary and the line that names the worst exit code. */
export function textTail(tally: Tally, options: RenderOptions): string {
  if (tally.inputs < 2) return "";
  return `\n${[...summaryLines(tally.summary(), options), worstLine(tally)].join("\n")}\n`;
}

function summaryLines(s: Summary, { style }: RenderOptions): string[] {
  const exits = (["0", "1", "3", "2"] as const)
    .filter((c) => s.exitCodes[c] > 0)
    .map((c) => `exit ${c}: ${s.exitCodes[c]}`);
  const lines = [`summary: ${s.inputs} inputs · ${exits.join(" · ")}`];
  if (PROPERTY_NAMES.every((p) => STATE_ORDER.every((st) => s.properties[p][st] === 0)))
    return [...lines, "  no input was verified"];
  for (const p of PROPERTY_NAMES) {
    const counts = STATE_ORDER.filter((st) => s.properties[p][st] > 0).map((st) =>
      style.state(st, `${st} ${s.properties[p][st]}`),
    );
    lines.push(`  ${p.padEnd(NAME_WIDTH)}  ${counts.join(" · ")}`);
  }
  return lines;
}

const STATE_ORDER: readonly State[] = ["PASS", "FAIL", "INCONCLUSIVE", "NOT_CHECKED", "NOT_PRESENT"];

/** The width a text report fits when its caller says none (contract §9.37). */
export const TEXT_WIDTH = 100;
/** The fewest columns a wrapped detail is given, however narrow the terminal. */
const MIN_COLUMN = 24;
/** A hash or key: a run of 20 or more hex digits. */
const HEX_RUN = /\b[0-9a-fA-F]{20,}\b/g;

/** Input text made printable, hashes and keys shortened unless verbose. */
function shown(text: string, verbose: boolean): string {
  const p = t(text);
  return verbose ? p : p.replace(HEX_RUN, (h) => `${h.slice(0, 12)}…`);
}

/**
 * `text` cut at spaces into lines of at most `first` columns, then `rest`. A longer word is cut
 * where it must, unless `whole` (verbose: a hash is never cut).
 */
function chunks(text: string, first: number, rest: number, whole = false): string[] {
  // A text that fits the first line is that line, however it is counted (a code point is one or
  // two units): most details. (Spaces that lead a line are dropped.)
  if (text.length <= first && !text.startsWith(" ")) return [text];
  return SURROGATE.test(text) ? codePointChunks(text, first, rest, whole) : unitChunks(text, first, rest, whole);
}

/** A code unit that is half of a surrogate pair (or a lone one): the only units that are not a code point each. */
const SURROGATE = /[\ud800-\udfff]/;

/**
 * `chunks` of a text whose every code unit is a code point: the same cuts, counted on the string
 * itself. Every line is a run of the text (its words and the single spaces between them, or a
 * piece of a word cut where it must), so each is sliced from the text once, when it is complete.
 */
function unitChunks(text: string, first: number, rest: number, whole: boolean): string[] {
  const lines: string[] = [];
  // The line being filled is text[from, from + length).
  let from = 0;
  let length = 0;
  const room = () => (lines.length === 0 ? first : rest);
  for (let at = 0; ;) {
    const space = text.indexOf(" ", at);
    const end = space < 0 ? text.length : space;
    // The word is text[word, end); a cut moves its start.
    let word = at;
    if (length > 0 && length + 1 + (end - word) > room()) {
      lines.push(text.slice(from, from + length));
      length = 0;
    } else if (length > 0) length++;
    while (!whole && length + (end - word) > room()) {
      const cut = room() - length;
      if (length === 0) from = word;
      lines.push(text.slice(from, word + cut));
      length = 0;
      word += cut;
    }
    if (length === 0) from = word;
    length += end - word;
    if (space < 0) break;
    at = space + 1;
  }
  lines.push(text.slice(from, from + length));
  return lines;
}

function codePointChunks(text: string, first: number, rest: number, whole: boolean): string[] {
  const lines: string[] = [];
  let line: string[] = [];
  const room = () => (lines.length === 0 ? first : rest);
  for (const word of text.split(" ")) {
    let chars = [...word];
    if (line.length > 0 && line.length + 1 + chars.length > room()) {
      lines.push(line.join(""));
      line = [];
    } else if (line.length > 0) line.push(" ");
    while (!whole && line.length + chars.length > room()) {
      const cut = room() - line.length;
      lines.push([...line, ...chars.slice(0, cut)].join(""));
      line = [];
      chars = chars.slice(cut);
    }
    line.push(...chars);
  }
  return [...lines, line.join("")];
}

const visibleLength = (text: string) => {
  const plain = text.includes("\u001b") ? text.replace(/\u001b\[[0-9;]*m/g, "") : text;
  return SURROGATE.test(plain) ? [...plain].length : plain.length;
};

/**
 * `head` then `text`, wrapped at spaces so each line fits `width`; the next lines start at column
 * `indent` (by default under the text's first column).
 */
export function wrapped(
  head: string,
  text: string,
  { width, verbose }: { width: number; verbose: boolean },
  indent?: number,
): string[] {
  const used = visibleLength(head);
  const at = indent ?? used;
  const room = (n: number) => Math.max(width - n, MIN_COLUMN);
  const [first = "", ...next] = chunks(text, room(used), room(at), verbose);
  if (next.length === 0) return [`${head}${first}`];
  return [`${head}${first}`, ...next.map((l) => `${" ".repeat(at)}${l}`)];
}

/** The property names, each padded to the widest: the column their states line up in. */
const NAME_WIDTH = Math.max(...PROPERTY_NAMES.map((p) => p.length));
const PADDED_NAMES = PROPERTY_NAMES.map((p) => p.padEnd(NAME_WIDTH));
const PADDED_STATE = Object.fromEntries(Object.keys(SYMBOL).map((st) => [st, st.padEnd(12)])) as Record<State, string>;

function renderInput(input: InputReport, { verbose, style, width: given }: RenderOptions): string[] {
  const width = given ?? TEXT_WIDTH;
  const fit = { width, verbose };
  if (isFailedInput(input)) {
    const pending = input.exitCode === 3;
    const word = pending ? "pending" : "error";
    return [
      style.bold(printableLineStart(input.source)),
      ...wrapped(
        `  ${pending ? style.state("NOT_CHECKED", word) : style.state("FAIL", word)} `,
        `${input.error.code}: ${shown(input.error.message, verbose)}${input.error.path ? ` at ${t(input.error.path)}` : ""}`,
        fit,
      ),
      pending
        ? "  exit 3: the Task has not ended; its evidence is pending"
        : `  exit 2: the input could not be verified: ${input.error.code}`,
    ];
  }
  const source = printableLineStart(input.source);
  const location = `(${input.shape}; bundle at ${t(input.locations.join(", "))})`;
  const rest = Math.max(width - 4, MIN_COLUMN);
  // Beside the source when a column of the location fits there; under it when the source (a long
  // path, never broken) leaves no such column, so no line but the source's own passes the width.
  const beside = width - visibleLength(source) - 2;
  const lines: string[] = [];
  if (beside >= MIN_COLUMN) {
    const [where = "", ...more] = chunks(location, beside, rest, verbose);
    lines.push(`${style.bold(source)}  ${style.dim(where)}`, ...more.map((l) => `    ${style.dim(l)}`));
  } else lines.push(style.bold(source), ...chunks(location, rest, rest, verbose).map((l) => `    ${style.dim(l)}`));
  for (let i = 0; i < PROPERTY_NAMES.length; i++) {
    const name = PROPERTY_NAMES[i] as PropertyName;
    const p = input.properties[name];
    const head = `  ${style.state(p.state, SYMBOL[p.state])} ${PADDED_NAMES[i]}  ${style.state(p.state, PADDED_STATE[p.state])}  `;
    lines.push(...wrapped(head, shown(p.detail, verbose), fit));
    if (verbose) for (const c of p.checks) lines.push(...renderCheck(c, style));
  }
  const lvl = input.evidenceLevel;
  lines.push(
    ...wrapped(
      `  evidence level: achieved ${style.bold(lvl.achieved)} `,
      `· claimed ${shown(lvl.claimed ?? "none", verbose)} · negotiated ${shown(lvl.negotiated ?? "none", verbose)}`,
      fit,
      4,
    ),
  );
  if (verbose) for (const n of input.notes) lines.push(...wrapped(`  ${style.dim("note:")} `, t(n), fit));
  lines.push(...exitReason(input, fit));
  return lines;
}

/** A check under -v: its detail wraps under its column; hashes stay whole. */
function renderCheck(c: Check, style: Style): string[] {
  const head = `      ${style.state(c.state, SYMBOL[c.state])} ${c.id}${c.subject ? ` [${t(c.subject)}]` : ""}: ${t(c.detail)}${c.code ? style.dim(` (${c.code})`) : ""}`;
  const values = Object.entries(c.values ?? {}).map(([k, v]) => `          ${style.dim(`${t(k)}: ${t(v)}`)}`);
  return [head, ...values];
}

/**
 * The closing lines of an input: every reason the policy does not hold, then one line a CI log
 * reader understands on its own — what the exit code means and what decided it.
 */
function exitReason(input: VerifiedInput, fit: { width: number; verbose: boolean }): string[] {
  const { verbose } = fit;
  const { exitCode, reasons } = input;
  // What the caller's explicit --insecure-… opt-in accepted is said beside the exit, never only under -v.
  const waived = verbose
    ? []
    : input.notes.filter((n) => n.startsWith("--insecure-")).flatMap((n) => wrapped("  note: ", t(n), fit));
  if (exitCode === 0) return [...waived, `  exit 0: the policy holds (evidence level ${input.evidenceLevel.achieved})`];
  const list = [
    `  ${exitCode === 1 ? "FAIL:" : "policy not met:"}`,
    ...reasons.flatMap((r) => wrapped("    - ", shown(r, verbose), fit)),
  ];
  const more = reasons.length > 1 ? `; and ${reasons.length - 1} more reason(s) above` : "";
  if (exitCode === 1) {
    const failing = PROPERTY_NAMES.filter((p) => input.properties[p].state === "FAIL");
    return [...list, `  exit 1: the evidence FAILs (tamper, mismatch or forgery): ${failing.join(", ")}`];
  }
  return [
    ...waived,
    ...list,
    `  exit 3: nothing FAILs, but the policy is not met: ${shown(reasons[0] ?? "", verbose)}${more}`,
  ];
}

/** The run's last line when there are several inputs: the worst exit code and where it comes from. */
function worstLine(tally: Tally): string {
  const code = tally.worst();
  const { listed, total } = tally.sourcesOf(code);
  const meaning =
    code === 0
      ? "the policy holds for every input"
      : code === 1
        ? "some property FAILs in"
        : code === 2
          ? "could not verify"
          : "the policy is not met for";
  const line = `exit ${code} (the worst of ${tally.inputs} inputs): ${meaning}${code === 0 ? "" : ` ${listOf(listed, total)}`}`;
  // A FAIL outranks an input that could not be read; the line still names those inputs.
  const unread = tally.sourcesOf(2);
  return code === 1 && unread.total > 0 ? `${line}; could not verify ${listOf(unread.listed, unread.total)}` : line;
}

function listOf(listed: readonly string[], total: number): string {
  const from = listed.slice(0, MAX_LISTED).map((x) => t(x));
  return `${from.join(", ")}${total > from.length ? ` and ${total - from.length} more` : ""}`;
}
