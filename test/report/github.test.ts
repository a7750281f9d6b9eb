import { describe, expect, it } from "vitest";
import { MAX_ANNOTATIONS_PER_KIND, renderGithub, renderGithubSummary } from "../../src/report/github.js";
import { PROPERTY_NAMES, type PropertyName, type State } from "../../src/report/model.js";
import { oneLine } from "../../src/report/untrusted.js";
import { EXIT_MEANING } from "../../src/report/explain.js";
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

/** What a property nothing requires is annotated as: INCONCLUSIVE warns unless it is by design (captureCoverage). */
function expectedLevel(p: PropertyName, state: State, required: boolean): string | undefined {
  if (state === "FAIL" || (required && state !== "PASS")) return "error";
  return state === "INCONCLUSIVE" && p !== "captureCoverage" ? "warning" : undefined;
}

describe("github: the shipped vectors", () => {
  eachVector(({ source, expected, report, input }) => {
    const cmds = commands(renderGithub(report, PLAIN));
    const annotated = PROPERTY_NAMES.filter(
      (p) => expectedLevel(p, expected.properties[p], REQUIRED_BY_DEFAULT.includes(p)) !== undefined,
    );
    // The policy's own line only for what no property line carries: the level below the minimum.
    const levelReasons = input.reasons.filter((r) => r.startsWith("evidence level "));
    const policyLine = expected.exitCode === 3 && levelReasons.length > 0;
    expect(cmds).toHaveLength(annotated.length + (policyLine ? 1 : 0) + 1);
    annotated.forEach((p, i) => {
      const c = cmds[i] as Command;
      const state = expected.properties[p];
      // The default policy requires identityAuthorityBinding and taskBinding: one that is not PASS is an error, and says so.
      const required = REQUIRED_BY_DEFAULT.includes(p) ? " (required)" : "";
      expect(c.command, p).toBe(expectedLevel(p, state, required !== ""));
      expect(c.properties).toEqual({ file: source, title: `a2a-evidence: ${p} ${state}${required}` });
      expect(c.data).toBe(
        `${source}: ${p} ${state}${required}: ${input.properties[p].detail} [check ${decidingId(input, p)}]`,
      );
    });
    if (policyLine) {
      const policy = cmds[cmds.length - 2] as Command;
      expect([policy.command, policy.properties.title]).toEqual(["error", "a2a-evidence: policy not met (exit 3)"]);
      const minimum = input.evidenceLevel.negotiated ?? "SIGNED_RECORD";
      expect(policy.data).toBe(
        `${source}: exit 3: ${EXIT_MEANING[3]}: ${levelReasons.join("; ")}; evidence level ${expected.evidenceLevel} (minimum ${minimum})`,
      );
    }
    // One run-level line with the counts; an exit that stops the gate is an error, and so is
    // at least one line about the input itself.
    const run = cmds[cmds.length - 1] as Command;
    expect([run.command, run.properties, run.data]).toEqual([
      expected.exitCode === 0 ? "notice" : "error",
      { title: `a2a-evidence: exit ${expected.exitCode}` },
      `exit ${expected.exitCode}: ${EXIT_MEANING[expected.exitCode]}; 1 input: 1 exit ${expected.exitCode}`,
    ]);
    expect(cmds.slice(0, -1).some((c) => c.command === "error")).toBe(expected.exitCode !== 0);
  });

  it("a passing input is quiet: no warning for a by-design state, no notice, one run-level line", () => {
    const cmds = commands(renderGithub(vectorReport("valid-rich"), PLAIN));
    expect(cmds.map((c) => [c.command, c.properties.title])).toEqual([["notice", "a2a-evidence: exit 0"]]);
    // A real doubt still warns: negotiation not observed (no first Task).
    const minimal = commands(renderGithub(vectorReport("valid-minimal"), PLAIN));
    expect(minimal.map((c) => [c.command, c.properties.title])).toEqual([
      ["warning", "a2a-evidence: negotiation INCONCLUSIVE"],
      ["notice", "a2a-evidence: exit 0"],
    ]);
  });

  it(`at most ${MAX_ANNOTATIONS_PER_KIND} annotations of each kind, the last saying how many more; the run line stays`, () => {
    const one = vectorReport("neg-producerSignature-signature-byte");
    const input = onlyVerified(one);
    const many = { ...one, inputs: Array.from({ length: 12 }, (_, i) => ({ ...input, source: `in${i}.json` })) };
    const perInput = commands(renderGithub(one, PLAIN)).filter((c) => c.command === "error").length - 1;
    const cmds = commands(renderGithub(many, PLAIN));
    const errors = cmds.filter((c) => c.command === "error");
    expect(errors).toHaveLength(MAX_ANNOTATIONS_PER_KIND);
    expect(errors[errors.length - 2]?.data).toBe(
      `${12 * perInput - 8} more error annotations are not shown (GitHub shows 10 of each kind per step): the step summary and the step log list every input`,
    );
    expect(errors[errors.length - 1]?.data).toBe(`exit 1: ${EXIT_MEANING[1]}; 12 inputs: 12 exit 1`);
    expect(cmds.filter((c) => c.command === "warning").length).toBeLessThanOrEqual(MAX_ANNOTATIONS_PER_KIND);
  });

  it("a required property that is not PASS is an error, whatever its state", () => {
    const report = vectorReport("valid-minimal", { require: ["continuity", "negotiation"] });
    const cmds = commands(renderGithub(report, PLAIN));
    const by = (p: PropertyName): Command | undefined =>
      cmds.find((c) => c.properties.title?.startsWith(`a2a-evidence: ${p} `));
    expect(by("continuity")?.command).toBe("error");
    expect(by("continuity")?.properties.title).toBe("a2a-evidence: continuity NOT_PRESENT (required)");
    expect(by("negotiation")?.command).toBe("error");
    expect(by("captureCoverage")).toBeUndefined();
    expect(by("outcomeCorroboration")).toBeUndefined();
    expect(cmds[cmds.length - 1]?.command).toBe("error");
    expect(cmds[cmds.length - 1]?.properties.title).toBe("a2a-evidence: exit 3");
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
    expect(run.map((c) => [c.command, c.properties.title])).toEqual([
      ["error", "a2a-evidence: nothing verified (exit 2)"],
      ["error", "a2a-evidence: exit 2"],
    ]);
    expect(run[1]?.data).toBe(`exit 2: ${EXIT_MEANING[2]}; 0 inputs`);
  });

  it("the same input gives the same bytes", () => {
    expect(renderGithub(vectorReport("valid-rich"), VERBOSE)).toBe(renderGithub(vectorReport("valid-rich"), VERBOSE));
    expect(renderGithubSummary(vectorReport("neg-taskBinding-task-id"))).toBe(
      renderGithubSummary(vectorReport("neg-taskBinding-task-id")),
    );
  });
});

describe("github: a Task that has not ended", () => {
  it.each(PENDING_VECTOR_NAMES)("%s is an error, not a warning, and a pending line in the summary, exit 3", (name) => {
    const report = vectorReport(name);
    const lines = renderGithub(report, PLAIN).trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    // Workflow-command properties escape ":" and ",": the title reads "a2a-evidence%3A evidence pending (exit 3)".
    expect(lines[0]).toMatch(
      /^::error file=[^,]+,title=a2a-evidence%3A evidence pending \(exit 3\)::.*INPUT_EVIDENCE_PENDING: the Task is in TASK_STATE_/,
    );
    expect(lines[1]).toMatch(/^::error title=a2a-evidence%3A exit 3::exit 3: .*; 1 input: 1 exit 3$/);
    // The input's own words are a code span.
    expect(renderGithubSummary(report)).toMatch(
      /⏳ \*\*Evidence pending \(exit 3\):\*\* the Task has not ended: its evidence is pending\. ` INPUT_EVIDENCE_PENDING: the Task is in TASK_STATE_[^`]* `\n/,
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
      // run error, the annotated properties of the FAILing vector (continuity required), the failed input, the run line
      const base = onlyVerified(vectorReport("neg-taskBinding-artifact-commitment"));
      const annotated = PROPERTY_NAMES.filter(
        (p) =>
          expectedLevel(p, base.properties[p].state, REQUIRED_BY_DEFAULT.includes(p) || p === "continuity") !==
          undefined,
      );
      expect(lines).toHaveLength(1 + annotated.length + 1 + 1);
      for (const line of lines) {
        expect(line).toMatch(/^::(error|warning|notice) (file=[^:,\r\n]*,)?title=[^:,\r\n]*::[^\r\n]*$/);
        expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202e]/);
      }
      expect(out).not.toMatch(/(^|[\r\n])::(stop-commands|add-mask|error::owned)/);
      const shown = oneLine(HOSTILE);
      const cmds = commands(out);
      expect(cmds.map((c) => c.command)).not.toContain("stop-commands");
      expect(cmds.map((c) => c.command)).not.toContain("add-mask");
      // The runner hands the annotation the input's text as one line: its line breaks as \u000a,
      // a pre-encoded %0A kept as those three characters, the terminal escape made visible.
      const tb = cmds.find((c) => c.properties.title === "a2a-evidence: taskBinding FAIL (required)");
      expect(tb?.properties.file).toBe(`task${shown}.json`);
      expect(tb?.data.split("\n")[0]).toBe(
        `task${shown}.json: taskBinding FAIL (required): ${shown} [check artifact.binding${shown}]`,
      );
      expect(tb?.data).toContain("\\u000a::error::owned\\u000d\\u000a::stop-commands::");
      expect(tb?.data).toContain("%0A::error::pct %25");
      expect(tb?.data).toContain("\\u001b[31m");
      expect(tb?.data).not.toContain("\u001b");
      // Every line break in a message is the renderer's own (verbose: one per check).
      for (const c of cmds)
        for (const l of c.data.split("\n").slice(1))
          expect(l).toMatch(/^(PASS|FAIL|INCONCLUSIVE|NOT_PRESENT|NOT_CHECKED) |^ {4}\S/);
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
    expect(md).toContain(
      "### ` missing.json `\n\n❌ **Input not verified (exit 2):** ` INPUT_UNREADABLE: no such file `",
    );
    expect(renderGithubSummary(trustErrorReport())).toMatch(/\*\*Nothing verified:\*\* ` TRUST/);
  });

  it("input text is one code span: no emoji, mention, autolink, HTML or cell break outside it", () => {
    const base = vectorReport("valid-minimal");
    const input = onlyVerified(base);
    const evil = "ok`` :+1: @octocat https://evil.example <b>bold</b> | ✅ PASS\n| contentBinding | ✅ PASS |    x";
    const cb = { ...input.properties.contentBinding, detail: evil };
    const report = {
      ...base,
      inputs: [{ ...input, source: `@octocat ${evil}.json`, properties: { ...input.properties, contentBinding: cb } }],
    };
    const md = renderGithubSummary(report);
    for (const line of md.split("\n")) expect(outsideCodeSpans(line)).not.toMatch(/octocat|:\+1:|https?:|<b>|evil|ok/);
    const inert =
      "ok`` :+1: @octocat https://evil.example <b>bold</b> | ✅ PASS\\u000a| contentBinding | ✅ PASS |  \\u0020\\u0020x";
    expect(md).toContain(`### \`\`\` @octocat ${inert}.json \`\`\`\n`);
    const row = rows(md).find((r) => r[0] === "contentBinding");
    expect(row).toEqual(["contentBinding", "✅ PASS", `\`\`\` ${inert.replace(/\|/g, "\\u007c")} \`\`\``]);
  });

  it("hostile text cannot break a row, or leave its code span", () => {
    const md = renderGithubSummary(hostileReport(["continuity"]));
    const table = rows(md);
    expect(table).toHaveLength(PROPERTY_NAMES.length);
    for (const r of table) expect(r).toHaveLength(3);
    for (const line of md.split("\n").filter((l) => l.includes("LIAF"))) {
      expect(line).not.toMatch(/[\u0000-\u001f\u202e]/);
      expect(line).toContain("\\u202eLIAF");
      expect(outsideCodeSpans(line)).not.toMatch(/script|LIAF|evil|<|@|\$/);
    }
  });
});

/** A line with its GFM code spans taken out (a run of n backticks closes at the next run of exactly n). */
function outsideCodeSpans(line: string): string {
  let out = "";
  let i = 0;
  while (i < line.length) {
    const open = /`+/.exec(line.slice(i));
    if (!open) return out + line.slice(i);
    out += line.slice(i, i + open.index);
    const from = i + open.index + open[0].length;
    const close = new RegExp(`(?<!\`)${open[0]}(?!\`)`).exec(line.slice(from));
    if (!close) return out + line.slice(i + open.index);
    i = from + close.index + open[0].length;
  }
  return out;
}
