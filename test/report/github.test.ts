import { describe, expect, it } from "vitest";
import { renderGithub, renderGithubSummary } from "../../src/report/github.js";
import { PROPERTY_NAMES, type PropertyName, type State } from "../../src/report/model.js";
import { visible } from "../../src/report/untrusted.js";
import {
  HOSTILE,
  PENDING_VECTOR_NAMES,
  PLAIN,
  VERBOSE,
  decidingId,
  eachVector,
  hostileReport,
  mixedReport,
  onlyVerified,
  trustErrorReport,
  vectorReport,
  REQUIRED_BY_DEFAULT,
  label,
} from "./reports.js";

interface Command {
  readonly command: string;
  readonly properties: Record<string, string>;
  readonly data: string;
}

// The runner's reading of one output line (actions/runner ActionCommand.TryParseV2): a line that
// starts with `::`, the command info up to the next `::`, then the data; properties split on `,`
// and `=`; `%0D` `%0A` `%3A` `%2C` `%25` unescaped, `%25` last.
function parseCommand(line: string): Command | undefined {
  if (!line.startsWith("::")) return undefined;
  const end = line.indexOf("::", 2);
  if (end < 0) return undefined;
  const info = line.slice(2, end);
  const space = info.indexOf(" ");
  const command = space < 0 ? info : info.slice(0, space);
  const properties: Record<string, string> = {};
  if (space >= 0) {
    for (const kv of info
      .slice(space + 1)
      .split(",")
      .filter((s) => s !== "")) {
      const eq = kv.indexOf("=");
      if (eq < 0) continue;
      properties[kv.slice(0, eq)] = unescape(kv.slice(eq + 1), true);
    }
  }
  return { command, properties, data: unescape(line.slice(end + 2), false) };
}

function unescape(s: string, property: boolean): string {
  let out = s.replace(/%0D/g, "\r").replace(/%0A/g, "\n");
  if (property) out = out.replace(/%3A/g, ":").replace(/%2C/g, ",");
  return out.replace(/%25/g, "%");
}

function commands(text: string): Command[] {
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => {
      const c = parseCommand(line);
      if (!c) throw new Error(`not a workflow command: ${JSON.stringify(line)}`);
      return c;
    });
}

const LEVEL: Record<Exclude<State, "PASS">, string> = {
  FAIL: "error",
  INCONCLUSIVE: "warning",
  NOT_PRESENT: "notice",
  NOT_CHECKED: "notice",
};

describe("github: the shipped vectors", () => {
  eachVector(({ source, expected, report, input }) => {
    const cmds = commands(renderGithub(report, PLAIN));
    const nonPass = PROPERTY_NAMES.filter((p) => expected.properties[p] !== "PASS");
    expect(cmds).toHaveLength(nonPass.length + 1);
    nonPass.forEach((p, i) => {
      const c = cmds[i] as Command;
      const state = expected.properties[p] as Exclude<State, "PASS">;
      // The default policy requires identityAuthorityBinding and taskBinding: one that is not PASS is an error, and says so.
      const required = REQUIRED_BY_DEFAULT.includes(p) ? " (required)" : "";
      expect(c.command, p).toBe(required ? "error" : LEVEL[state]);
      expect(c.properties).toEqual({ file: source, title: `a2a-evidence: ${p} ${state}${required}` });
      expect(c.data).toBe(
        `${source}: ${p} ${state}${required}: ${input.properties[p].detail} [check ${decidingId(input, p)}]`,
      );
    });
    const policy = cmds[cmds.length - 1] as Command;
    expect(policy.command).toBe(expected.exitCode === 0 ? "notice" : "error");
    expect(policy.properties.title).toBe(
      expected.exitCode === 0
        ? "a2a-evidence: policy holds (exit 0)"
        : `a2a-evidence: policy not met (exit ${expected.exitCode})`,
    );
    expect(policy.data).toMatch(new RegExp(`^${escapeRe(source)}: exit ${expected.exitCode}: `));
    for (const r of input.reasons) expect(policy.data).toContain(r);
    // The level to reach: the negotiated minimum when the input shows one, else SIGNED_RECORD (contract §6).
    const minimum = input.evidenceLevel.negotiated ?? "SIGNED_RECORD";
    expect(policy.data).toMatch(new RegExp(`; evidence level ${expected.evidenceLevel} \\(minimum ${minimum}\\)$`));
  });

  it("a required property that is not PASS is an error, whatever its state", () => {
    const report = vectorReport("valid-minimal", { require: ["continuity", "negotiation"] });
    const cmds = commands(renderGithub(report, PLAIN));
    const by = (p: PropertyName): Command | undefined =>
      cmds.find((c) => c.properties.title?.startsWith(`a2a-evidence: ${p} `));
    expect(by("continuity")?.command).toBe("error");
    expect(by("continuity")?.properties.title).toBe("a2a-evidence: continuity NOT_PRESENT (required)");
    expect(by("negotiation")?.command).toBe("error");
    expect(by("captureCoverage")?.command).toBe("warning");
    expect(by("outcomeCorroboration")?.command).toBe("notice");
    expect(cmds[cmds.length - 1]?.properties.title).toBe("a2a-evidence: policy not met (exit 3)");
  });

  it("verbose puts every check of the property into its annotation", () => {
    const report = vectorReport("neg-externalRegistration-receipt-signature");
    const input = onlyVerified(report);
    const c = commands(renderGithub(report, VERBOSE)).find(
      (x) => x.properties.title === "a2a-evidence: externalRegistration FAIL",
    );
    const lines = c?.data.split("\n") ?? [];
    for (const check of input.properties.externalRegistration.checks)
      expect(lines.some((l) => l.startsWith(`${check.state} ${check.id}`))).toBe(true);
  });

  it("inputs that were not verified, and a run that verified nothing, are errors", () => {
    const mixed = commands(renderGithub(mixedReport(), PLAIN));
    const failed = mixed.filter((c) => c.properties.title === "a2a-evidence: input not verified (exit 2)");
    expect(failed.map((c) => c.properties.file)).toEqual(["missing.json", "garbage.json"]);
    expect(failed[0]?.data).toBe("missing.json: INPUT_UNREADABLE: no such file");
    expect(failed.every((c) => c.command === "error")).toBe(true);
    const run = commands(renderGithub(trustErrorReport(), PLAIN));
    expect(run).toHaveLength(1);
    expect(run[0]?.command).toBe("error");
    expect(run[0]?.properties).toEqual({ title: "a2a-evidence: nothing verified (exit 2)" });
  });

  it("the same input gives the same bytes", () => {
    expect(renderGithub(vectorReport("valid-rich"), VERBOSE)).toBe(renderGithub(vectorReport("valid-rich"), VERBOSE));
    expect(renderGithubSummary(vectorReport("neg-taskBinding-task-id"))).toBe(
      renderGithubSummary(vectorReport("neg-taskBinding-task-id")),
    );
  });
});

describe("github: a Task that has not ended", () => {
  it.each(PENDING_VECTOR_NAMES)("%s is one warning and a pending line in the summary, exit 3", (name) => {
    const report = vectorReport(name);
    const lines = renderGithub(report, PLAIN).trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    // Workflow-command properties escape ":" and ",": the title reads "a2a-evidence%3A evidence pending (exit 3)".
    expect(lines[0]).toMatch(
      /^::warning file=[^,]+,title=a2a-evidence%3A evidence pending \(exit 3\)::.*INPUT_EVIDENCE_PENDING: the Task is in TASK_STATE_/,
    );
    // Markdown escapes the underscores of the code.
    expect(renderGithubSummary(report)).toMatch(
      /⏳ \*\*Evidence pending \(exit 3\):\*\* the Task has not ended: its evidence is pending\. INPUT\\_EVIDENCE\\_PENDING/,
    );
  });
});

describe("github: a hostile detail cannot inject a workflow command", () => {
  for (const [label, options] of [
    ["plain", PLAIN],
    ["verbose", VERBOSE],
  ] as const) {
    it(`${label}: one command per line, each ours, and the message carries the text and nothing more`, () => {
      const out = renderGithub(hostileReport(["continuity"]), options);
      const lines = out.slice(0, -1).split("\n");
      // run error, 11 non-PASS properties of the FAILing vector plus the required one, policy, failed input
      const expectedCount =
        1 +
        PROPERTY_NAMES.filter(
          (p) => onlyVerified(vectorReport("neg-taskBinding-artifact-commitment")).properties[p].state !== "PASS",
        ).length +
        1 +
        1;
      expect(lines).toHaveLength(expectedCount);
      for (const line of lines) {
        expect(line).toMatch(/^::(error|warning|notice) (file=[^:,\r\n]*,)?title=[^:,\r\n]*::[^\r\n]*$/);
        expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202e]/);
      }
      expect(out).not.toMatch(/(^|[\r\n])::(stop-commands|add-mask|error::owned)/);
      const shown = visible(HOSTILE, "\r\n");
      const cmds = commands(out);
      expect(cmds.map((c) => c.command)).not.toContain("stop-commands");
      expect(cmds.map((c) => c.command)).not.toContain("add-mask");
      // The runner hands the annotation the exact text: line breaks inside it, a pre-encoded %0A
      // kept as those three characters, the terminal escape made visible.
      const tb = cmds.find((c) => c.properties.title === "a2a-evidence: taskBinding FAIL (required)");
      expect(tb?.properties.file).toBe(`task${shown}.json`);
      expect(tb?.data.split("\n")[0]).toBe(`task${shown.split("\n")[0]}`);
      expect(tb?.data).toContain(`: taskBinding FAIL (required): ${shown} [check artifact.binding${shown}]`);
      expect(tb?.data).toContain("%0A::error::pct %25");
      expect(tb?.data).toContain("\\u001b[31m");
      expect(tb?.data).not.toContain("\u001b");
    });
  }
});

describe("github: the step summary", () => {
  /** Table rows of the summary; each must split into exactly three cells on unescaped pipes. */
  function rows(md: string): string[][] {
    return md
      .split("\n")
      .filter((l) => l.startsWith("| ") && !l.startsWith("| property ") && !l.startsWith("| ---"))
      .map((l) =>
        l
          .split(/(?<!\\)\|/)
          .slice(1, -1)
          .map((c) => c.trim()),
      );
  }

  eachVector(({ expected, report }) => {
    const md = renderGithubSummary(report);
    const table = rows(md);
    expect(table.map((r) => r[0])).toEqual(PROPERTY_NAMES.map(label));
    table.forEach((r, i) => {
      expect(r).toHaveLength(3);
      expect(r[1]).toMatch(new RegExp(` ${expected.properties[PROPERTY_NAMES[i] as PropertyName]}$`));
    });
    expect(md).toContain(`Evidence level: achieved **${expected.evidenceLevel.replace(/_/g, "\\_")}**`);
    expect(md).toContain(`**Policy: exit ${expected.exitCode}**`);
  });

  it("a FailedInput and a run error are stated", () => {
    const md = renderGithubSummary(mixedReport());
    expect(md).toContain("### missing.json\n\n❌ **Input not verified (exit 2):** INPUT\\_UNREADABLE: no such file");
    expect(renderGithubSummary(trustErrorReport())).toMatch(/\*\*Nothing verified:\*\* TRUST/);
  });

  it("hostile text cannot break a row, open HTML, a code span, a link or maths", () => {
    const md = renderGithubSummary(hostileReport(["continuity"]));
    const table = rows(md);
    expect(table).toHaveLength(PROPERTY_NAMES.length);
    for (const r of table) expect(r).toHaveLength(3);
    // Every `<` left is one of our own line breaks; no raw backtick, bracket, dollar or pipe from the input.
    expect(md.replace(/<br>/g, "")).not.toMatch(/</);
    for (const line of md.split("\n").filter((l) => l.includes("LIAF"))) {
      expect(line).not.toMatch(/(?<!\\)[`[\]$]/);
      expect(line).not.toMatch(/[\u0000-\u001f\u202e]/);
      expect(line).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(line).toContain("\\u202eLIAF");
      expect(line).toContain("&amp;amp;");
    }
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
