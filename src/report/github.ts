/**
 * GitHub Actions workflow commands (`::error …::`, `::warning …::`, `::notice …::`) and a Markdown
 * summary for `$GITHUB_STEP_SUMMARY`.
 *
 * What is annotated, so that the annotations never let through what the exit code stops (contract
 * §9.26) and a passing run is quiet:
 * - `error`: a FAIL, a required property that is not PASS, the policy reasons no property carries
 *   (the evidence level below the minimum), an input whose Task has not ended (exit 3), an input
 *   that could not be read (exit 2), a run that verified nothing;
 * - `warning`: an INCONCLUSIVE property nothing requires, unless INCONCLUSIVE is the most it can
 *   ever be (captureCoverage: one record cannot establish coverage), which is no doubt;
 * - nothing for PASS, NOT_PRESENT and NOT_CHECKED of a property nothing requires (the step summary
 *   lists every state);
 * - one run-level line: the exit code and how many inputs ended with each, a `notice` for exit 0,
 *   else an `error`.
 * GitHub shows 10 annotations of each kind per step: beyond that, the first 9 of a kind are kept
 * and a 10th says how many more there are (the run-level line always stays).
 *
 * The runner reads a command from any line of the step's output that starts with `::`. A detail
 * that could put a line break into the output could therefore start a command of its own
 * (`::add-mask::`, `::stop-commands::`, a forged `::notice::` saying all is well). Every string of
 * the report is made one line first (untrusted.ts), then escaped as GitHub's toolkit does (data:
 * `%` `\r` `\n`; properties also `:` `,`), so each command is exactly one line and its message
 * cannot leave it.
 */
import {
  PROPERTY_NAMES,
  isFailedInput,
  type PropertyName,
  type Report,
  type State,
  type VerifiedInput,
} from "./model.js";
import type { RenderOptions } from "./options.js";
import {
  checkLine,
  checkValues,
  decidingChecks,
  errorText,
  notVerifiedMeaning,
  exitMeaning,
  inputMinimum,
  isRequired,
  minimumText,
  policyOwnReasons,
  policyReasons,
  propertyFinding,
  requiredText,
} from "./explain.js";
import { inertReport, visible } from "./untrusted.js";
import { summarize } from "./summary.js";

type Level = "error" | "warning" | "notice";

interface Annotation {
  readonly level: Level;
  readonly line: string;
}

/** GitHub shows at most this many annotations of each kind per step. */
export const MAX_ANNOTATIONS_PER_KIND = 10;

/** Properties one record can never make PASS: their INCONCLUSIVE is by design, not a doubt. */
const NEVER_PASS: readonly PropertyName[] = ["captureCoverage"];

export function renderGithub(given: Report, options: RenderOptions): string {
  const report = inertReport(given);
  const annotations: Annotation[] = [];
  const add = (level: Level, props: { file?: string; title: string }, message: string): void => {
    annotations.push({ level, line: command(level, props, message) });
  };
  if (report.error) add("error", { title: "a2a-evidence: nothing verified (exit 2)" }, errorText(report.error));
  for (const input of report.inputs) {
    if (isFailedInput(input)) {
      const pending = input.exitCode === 3;
      add(
        "error",
        {
          file: input.source,
          title: pending ? "a2a-evidence: evidence pending (exit 3)" : "a2a-evidence: input not verified (exit 2)",
        },
        `${input.source}: ${errorText(input.error)}`,
      );
      continue;
    }
    for (const name of PROPERTY_NAMES) {
      const level = levelFor(report, name, input.properties[name].state);
      if (level !== undefined) add(level, ...propertyCommand(input, report, name, options.verbose));
    }
    const own = policyOwnReasons(report, input);
    if (own.length > 0) add("error", ...policyCommand(input, report, own));
  }
  const run = runAnnotation(report);
  return [...capped(annotations, run.level), run]
    .map((a) => a.line)
    .join("\n")
    .concat("\n");
}

function levelFor(report: Report, name: PropertyName, state: string): Level | undefined {
  if (propertyFinding(report, name, state) !== undefined) return "error";
  return state === "INCONCLUSIVE" && !NEVER_PASS.includes(name) ? "warning" : undefined;
}

/**
 * At most MAX_ANNOTATIONS_PER_KIND of each kind, counting the run-level line for its kind: beyond
 * that, one line of the kind says how many were left out and where they are.
 */
function capped(annotations: readonly Annotation[], runLevel: Level): Annotation[] {
  const room = (level: Level): number => MAX_ANNOTATIONS_PER_KIND - (level === runLevel ? 1 : 0);
  const counts: Record<Level, number> = { error: 0, warning: 0, notice: 0 };
  for (const a of annotations) counts[a.level]++;
  const total = (level: Level): number => counts[level];
  const shown: Record<Level, number> = { error: 0, warning: 0, notice: 0 };
  const kept = annotations.filter((a) => {
    const keep = total(a.level) <= room(a.level) || shown[a.level] < room(a.level) - 1;
    if (keep) shown[a.level]++;
    return keep;
  });
  const more = (["error", "warning", "notice"] as const)
    .filter((level) => total(level) > room(level))
    .map((level): Annotation => {
      const left = total(level) - shown[level];
      return {
        level,
        line: command(
          level,
          { title: `a2a-evidence: ${left} more ${level}s` },
          `${left} more ${level} annotations are not shown (GitHub shows ${MAX_ANNOTATIONS_PER_KIND} of each kind per step): the step summary and the step log list every input`,
        ),
      };
    });
  return [...kept, ...more];
}

/** One line for the run: its exit code and how many inputs ended with each exit code. */
function runAnnotation(report: Report): Annotation {
  const code = report.policy.exitCode;
  const tally = summarize(report.inputs);
  const counts = ([0, 1, 2, 3] as const)
    .map((c) => [c, tally.sourcesOf(c).total] as const)
    .filter(([, n]) => n > 0)
    .map(([c, n]) => `${n} exit ${c}`);
  const inputs = `${tally.inputs} input${tally.inputs === 1 ? "" : "s"}${counts.length > 0 ? `: ${counts.join(", ")}` : ""}`;
  const level: Level = code === 0 ? "notice" : "error";
  return {
    level,
    line: command(level, { title: `a2a-evidence: exit ${code}` }, `exit ${code}: ${exitMeaning(code)}; ${inputs}`),
  };
}

function propertyCommand(
  input: VerifiedInput,
  report: Report,
  name: PropertyName,
  verbose: boolean,
): [{ file: string; title: string }, string] {
  const p = input.properties[name];
  const required = isRequired(report, name) ? " (required)" : "";
  const deciding = decidingChecks(p)[0];
  const lines = [
    `${input.source}: ${name} ${p.state}${required}: ${p.detail}${deciding ? ` [check ${deciding.id}]` : ""}`,
  ];
  if (verbose) {
    for (const c of p.checks) {
      lines.push(`${c.state} ${checkLine(c)}`);
      for (const [k, v] of checkValues(c)) lines.push(`    ${k}: ${v}`);
    }
  }
  return [{ file: input.source, title: `a2a-evidence: ${name} ${p.state}${required}` }, lines.join("\n")];
}

/** The policy's own reasons (those no property annotation carries), with the evidence level. */
function policyCommand(
  input: VerifiedInput,
  report: Report,
  own: readonly string[],
): [{ file: string; title: string }, string] {
  const level = `evidence level ${input.evidenceLevel.achieved} (minimum ${inputMinimum(report, input)})`;
  return [
    { file: input.source, title: `a2a-evidence: policy not met (exit ${input.exitCode})` },
    `${input.source}: exit ${input.exitCode}: ${exitMeaning(input.exitCode)}: ${own.join("; ")}; ${level}`,
  ];
}

function command(level: Level, props: { file?: string; title: string }, message: string): string {
  const p = Object.entries(props).map(([k, v]) => `${k}=${escapeProperty(v)}`);
  return `::${level} ${p.join(",")}::${escapeData(message)}`;
}

// actions/toolkit core: escapeData / escapeProperty. `%` first, so a detail that already contains
// `%0A` stays those three characters and is not decoded into a line break by the runner.
function escapeData(s: string): string {
  return visible(s, "\r\n").replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

const ICON: Record<State, string> = {
  PASS: "✅",
  FAIL: "❌",
  INCONCLUSIVE: "⚠️",
  NOT_CHECKED: "➖",
  NOT_PRESENT: "⭕",
};

/**
 * The job summary: a table per input (property, state, detail), the evidence level and the policy.
 * Text from the input is inert Markdown (contract §9.34): one line, inside a code span, where no
 * emphasis, link, autolink, `:emoji:`, `@mention` or HTML is rendered; in a table cell its `|` is
 * written `\u007c` so it cannot end the cell. The tool's own words are Markdown-escaped.
 */
export function renderGithubSummary(given: Report): string {
  const report = inertReport(given);
  const out = ["## a2a-evidence", ""];
  out.push(
    `Policy: minimum evidence ${code(minimumText(report))}, required ${md(requiredText(report))}. **Exit ${report.policy.exitCode}**: ${md(exitMeaning(report.policy.exitCode))}.`,
    "",
  );
  if (report.error) out.push(`**Nothing verified:** ${code(errorText(report.error))}`, "");
  for (const input of report.inputs) {
    out.push(`### ${code(input.source)}`, "");
    if (isFailedInput(input)) {
      out.push(
        input.exitCode === 3
          ? `⏳ **Evidence pending (exit 3):** ${md(notVerifiedMeaning(input))}. ${code(errorText(input.error))}`
          : `❌ **Input not verified (exit 2):** ${code(errorText(input.error))}`,
        "",
      );
      continue;
    }
    out.push("| property | state | detail |", "| --- | --- | --- |");
    for (const name of PROPERTY_NAMES) {
      const p = input.properties[name];
      const required = isRequired(report, name) ? " (required)" : "";
      out.push(`| ${name}${required} | ${ICON[p.state] ?? ""} ${p.state} | ${cell(p.detail)} |`);
    }
    const lvl = input.evidenceLevel;
    out.push(
      "",
      `Evidence level: achieved **${md(lvl.achieved)}** · claimed ${code(lvl.claimed ?? "none")} · negotiated ${code(lvl.negotiated ?? "none")}`,
      "",
    );
    const reasons = policyReasons(input);
    out.push(
      `**Policy: exit ${input.exitCode}**: ${md(exitMeaning(input.exitCode))}${reasons.length > 0 ? `: ${code(reasons.join("; "))}` : ""}`,
      "",
    );
  }
  while (out[out.length - 1] === "") out.pop();
  return `${out.join("\n")}\n`;
}

/**
 * Input text as a GFM code span: fenced by more backticks than its longest run, padded by a space
 * on each side (which the span strips), so nothing inside is Markdown. It is already one line.
 */
function code(s: string): string {
  const longest = (s.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0);
  const fence = "`".repeat(longest + 1);
  return `${fence} ${s} ${fence}`;
}

/** A code span in a table cell: GFM splits a row on `|` even inside a code span. */
function cell(s: string): string {
  return code(s.replace(/\|/g, "\\u007c"));
}

// GitHub Flavored Markdown for the tool's own words (states, levels, exit meanings): a backslash
// escapes the inline metacharacters, `<`, `>` and `&` become entities. Not for input text: GitHub
// renders `:emoji:` and `@mentions` after Markdown, so escapes do not make them inert.
function md(s: string): string {
  return visible(s)
    .replace(/[\\`*_[\]|~$#]/g, (c) => `\\${c}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}
