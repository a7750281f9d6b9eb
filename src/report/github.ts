/**
 * GitHub Actions workflow commands (`::error …::`, `::warning …::`, `::notice …::`), one per
 * property that is not PASS and one for the policy of each input, and a Markdown summary for
 * `$GITHUB_STEP_SUMMARY`.
 *
 * The runner reads a command from any line of the step's output that starts with `::`. A detail
 * that could put a line break into the output could therefore start a command of its own
 * (`::add-mask::`, `::stop-commands::`, a forged `::notice::` saying all is well). Every untrusted
 * string is escaped as GitHub's toolkit does (data: `%` `\r` `\n`; properties also `:` `,`), and
 * other line-breaking or disguising characters are made visible first, so each command is exactly
 * one line and its message cannot leave it.
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
  policyReasons,
  requiredText,
} from "./explain.js";
import { visible } from "./untrusted.js";

type Level = "error" | "warning" | "notice";

export function renderGithub(report: Report, options: RenderOptions): string {
  const lines: string[] = [];
  if (report.error)
    lines.push(command("error", { title: "a2a-evidence: nothing verified (exit 2)" }, errorText(report.error)));
  for (const input of report.inputs) {
    if (isFailedInput(input)) {
      const pending = input.exitCode === 3;
      lines.push(
        command(
          pending ? "warning" : "error",
          {
            file: input.source,
            title: pending ? "a2a-evidence: evidence pending (exit 3)" : "a2a-evidence: input not verified (exit 2)",
          },
          `${input.source}: ${errorText(input.error)}`,
        ),
      );
      continue;
    }
    for (const name of PROPERTY_NAMES) {
      const level = levelFor(report, name, input.properties[name].state);
      if (level !== undefined) lines.push(propertyCommand(input, report, name, level, options.verbose));
    }
    lines.push(policyCommand(input, report));
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

function levelFor(report: Report, name: PropertyName, state: State): Level | undefined {
  if (state === "PASS") return undefined;
  if (state === "FAIL" || isRequired(report, name)) return "error";
  return state === "INCONCLUSIVE" ? "warning" : "notice";
}

function propertyCommand(
  input: VerifiedInput,
  report: Report,
  name: PropertyName,
  level: Level,
  verbose: boolean,
): string {
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
  return command(level, { file: input.source, title: `a2a-evidence: ${name} ${p.state}${required}` }, lines.join("\n"));
}

function policyCommand(input: VerifiedInput, report: Report): string {
  const level = `evidence level ${input.evidenceLevel.achieved} (minimum ${inputMinimum(report, input)})`;
  if (input.exitCode === 0) {
    return command(
      "notice",
      { file: input.source, title: "a2a-evidence: policy holds (exit 0)" },
      `${input.source}: exit 0: ${exitMeaning(0)}; ${level}`,
    );
  }
  const reasons = policyReasons(input);
  return command(
    "error",
    { file: input.source, title: `a2a-evidence: policy not met (exit ${input.exitCode})` },
    `${input.source}: exit ${input.exitCode}: ${exitMeaning(input.exitCode)}: ${reasons.join("; ")}; ${level}`,
  );
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
 * Untrusted text is Markdown-escaped so it cannot close a table cell, open raw HTML, start a code
 * span, a link, an image or maths, or break the row.
 */
export function renderGithubSummary(report: Report): string {
  const out = ["## a2a-evidence", ""];
  out.push(
    `Policy: minimum evidence ${md(minimumText(report))}, required ${md(requiredText(report))}. **Exit ${report.policy.exitCode}**: ${md(exitMeaning(report.policy.exitCode))}.`,
    "",
  );
  if (report.error) out.push(`**Nothing verified:** ${md(errorText(report.error))}`, "");
  for (const input of report.inputs) {
    out.push(`### ${md(input.source)}`, "");
    if (isFailedInput(input)) {
      out.push(
        input.exitCode === 3
          ? `⏳ **Evidence pending (exit 3):** ${md(notVerifiedMeaning(input))}. ${md(errorText(input.error))}`
          : `❌ **Input not verified (exit 2):** ${md(errorText(input.error))}`,
        "",
      );
      continue;
    }
    out.push("| property | state | detail |", "| --- | --- | --- |");
    for (const name of PROPERTY_NAMES) {
      const p = input.properties[name];
      const required = isRequired(report, name) ? " (required)" : "";
      out.push(`| ${name}${required} | ${ICON[p.state] ?? ""} ${p.state} | ${md(p.detail)} |`);
    }
    const lvl = input.evidenceLevel;
    out.push(
      "",
      `Evidence level: achieved **${md(lvl.achieved)}** · claimed ${md(lvl.claimed ?? "none")} · negotiated ${md(lvl.negotiated ?? "none")}`,
      "",
    );
    const reasons = policyReasons(input);
    out.push(
      `**Policy: exit ${input.exitCode}**: ${md(exitMeaning(input.exitCode))}${reasons.length > 0 ? `: ${md(reasons.join("; "))}` : ""}`,
      "",
    );
  }
  while (out[out.length - 1] === "") out.pop();
  return `${out.join("\n")}\n`;
}

// GitHub Flavored Markdown, for text that only ever lands inside a table cell, a heading or a
// paragraph we started: a backslash escapes the inline metacharacters (code span, emphasis, link
// and image brackets, cell separator, strikethrough, `$` because GitHub renders maths between
// dollars, `#` because a heading drops a trailing run of them); `<`, `>` and `&` become entities (no
// raw HTML, no entity tricks); line breaks become <br>, since a newline would end the table row.
function md(s: string): string {
  return visible(s, "\r\n")
    .replace(/[\\`*_[\]|~$#]/g, (c) => `\\${c}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\r\n|\r|\n/g, "<br>");
}
