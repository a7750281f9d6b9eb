/**
 * JUnit XML for CI test views (the Jenkins/Ant `junit-10.xsd` shape: testsuites › testsuite ›
 * testcase with failure, skipped or error). One testsuite per input, one testcase per property,
 * one more for the policy. A FAIL is a failure; NOT_PRESENT, NOT_CHECKED and INCONCLUSIVE are
 * skipped unless the policy requires the property, then they are failures too. An input that could
 * not be read is a suite with one errored testcase, so a CI view never shows "0 tests, all green"
 * for a run that verified nothing. No timestamps or durations: the same report gives the same bytes.
 */
import {
  PROPERTY_NAMES,
  isFailedInput,
  type FailedInput,
  type InputError,
  type Report,
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
  policyReasons,
  requiredText,
} from "./explain.js";
import { visible } from "./untrusted.js";

interface Outcome {
  readonly kind: "failure" | "skipped" | "error";
  readonly type: string;
  readonly message: string;
  readonly body: string;
}

interface TestCase {
  readonly name: string;
  readonly classname: string;
  readonly outcome?: Outcome;
  readonly out?: string;
}

interface Suite {
  readonly name: string;
  readonly properties: readonly (readonly [string, string])[];
  readonly cases: readonly TestCase[];
  readonly out?: string;
}

export function renderJunit(report: Report, options: RenderOptions): string {
  const suites: Suite[] = [];
  if (report.error) suites.push(runErrorSuite(report.error, report));
  for (const input of report.inputs)
    suites.push(isFailedInput(input) ? failedSuite(input) : verifiedSuite(input, report, options.verbose));

  const count = (s: Suite, kind: Outcome["kind"]): number => s.cases.filter((c) => c.outcome?.kind === kind).length;
  const total = (f: (s: Suite) => number): string => String(suites.reduce((n, s) => n + f(s), 0));
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites${attrs([
      ["name", "a2a-evidence"],
      ["tests", total((s) => s.cases.length)],
      ["failures", total((s) => count(s, "failure"))],
      ["errors", total((s) => count(s, "error"))],
    ])}>`,
  ];
  suites.forEach((s, i) => {
    out.push(
      `  <testsuite${attrs([
        ["name", s.name],
        ["id", String(i)],
        ["tests", String(s.cases.length)],
        ["failures", String(count(s, "failure"))],
        ["errors", String(count(s, "error"))],
        ["skipped", String(count(s, "skipped"))],
      ])}>`,
    );
    if (s.properties.length > 0) {
      out.push(`    <properties>`);
      for (const [name, value] of s.properties)
        out.push(
          `      <property${attrs([
            ["name", name],
            ["value", value],
          ])}/>`,
        );
      out.push(`    </properties>`);
    }
    for (const c of s.cases) out.push(...renderCase(c));
    if (s.out !== undefined) out.push(`    <system-out>${text(s.out)}</system-out>`);
    out.push(`  </testsuite>`);
  });
  out.push(`</testsuites>`);
  return `${out.join("\n")}\n`;
}

function renderCase(c: TestCase): string[] {
  const open = `    <testcase${attrs([
    ["name", c.name],
    ["classname", c.classname],
  ])}`;
  if (c.outcome === undefined && c.out === undefined) return [`${open}/>`];
  const lines = [`${open}>`];
  if (c.outcome) {
    const o = c.outcome;
    lines.push(
      `      <${o.kind}${attrs([
        ["type", o.type],
        ["message", o.message],
      ])}>${text(o.body)}</${o.kind}>`,
    );
  }
  if (c.out !== undefined) lines.push(`      <system-out>${text(c.out)}</system-out>`);
  lines.push(`    </testcase>`);
  return lines;
}

function verifiedSuite(input: VerifiedInput, report: Report, verbose: boolean): Suite {
  const cases: TestCase[] = PROPERTY_NAMES.map((name) => {
    const p = input.properties[name];
    const deciding = decidingChecks(p);
    const decidingText = deciding.map((c) => checkWithValues(c)).join("\n");
    const all = verbose ? p.checks.map((c) => checkWithValues(c)).join("\n") : undefined;
    const base = { name, classname: input.source };
    if (p.state === "PASS") return { ...base, out: verbose ? `PASS: ${p.detail}\n${all}` : `PASS: ${p.detail}` };
    const first = deciding[0];
    const required = isRequired(report, name);
    if (p.state === "FAIL" || required) {
      const type = first?.id ?? p.state;
      const message = p.state === "FAIL" ? `${type}: ${p.detail}` : `required, but ${p.state}: ${p.detail}`;
      return {
        ...base,
        outcome: { kind: "failure", type, message, body: decidingText },
        ...(all !== undefined ? { out: all } : {}),
      };
    }
    return {
      ...base,
      outcome: { kind: "skipped", type: p.state, message: `${p.state}: ${p.detail}`, body: decidingText },
      ...(all !== undefined ? { out: all } : {}),
    };
  });

  const level = input.evidenceLevel;
  const levelLine = `evidence level: achieved ${level.achieved} (minimum ${inputMinimum(report, input)}), claimed ${level.claimed ?? "none"}, negotiated ${level.negotiated ?? "none"}`;
  if (input.exitCode === 0) {
    cases.push({ name: "policy", classname: input.source, out: `exit 0: ${exitMeaning(0)}\n${levelLine}` });
  } else {
    const reasons = policyReasons(input);
    cases.push({
      name: "policy",
      classname: input.source,
      outcome: {
        kind: "failure",
        type: `exit ${input.exitCode}`,
        message: `exit ${input.exitCode}: ${exitMeaning(input.exitCode)}: ${reasons.join("; ")}`,
        body: [...reasons, levelLine].join("\n"),
      },
    });
  }

  return {
    name: input.source,
    properties: [
      ["shape", input.shape],
      ["locations", input.locations.join(", ")],
      ["recordProfile", input.recordProfile ?? "none"],
      ["evidenceId", input.evidenceId ?? "none"],
      ["evidenceLevel.achieved", level.achieved],
      ["evidenceLevel.claimed", level.claimed ?? "none"],
      ["evidenceLevel.negotiated", level.negotiated ?? "none"],
      ["policy.required", requiredText(report)],
      ["policy.minEvidence", inputMinimum(report, input)],
      ["exitCode", String(input.exitCode)],
      ["tool", `${report.tool.name} ${report.tool.version}`],
    ],
    cases,
    ...(input.notes.length > 0 ? { out: input.notes.map((n) => `note: ${n}`).join("\n") } : {}),
  };
}

function checkWithValues(c: Parameters<typeof checkLine>[0]): string {
  return [`${c.state} ${checkLine(c)}`, ...checkValues(c).map(([k, v]) => `    ${k}: ${v}`)].join("\n");
}

function errorOutcome(e: InputError, what: string): Outcome {
  return { kind: "error", type: e.code, message: errorText(e), body: `exit 2: ${what}` };
}

function failedSuite(input: FailedInput): Suite {
  // A Task that has not ended is not an error of the input: there is nothing to verify yet.
  const outcome: Outcome =
    input.exitCode === 3
      ? {
          kind: "skipped",
          type: input.error.code,
          message: errorText(input.error),
          body: `exit 3: ${notVerifiedMeaning(input)}`,
        }
      : errorOutcome(input.error, exitMeaning(2));
  return {
    name: input.source,
    properties: [["exitCode", String(input.exitCode)]],
    cases: [{ name: "input", classname: input.source, outcome }],
  };
}

function runErrorSuite(e: InputError, report: Report): Suite {
  return {
    name: "a2a-evidence",
    properties: [["exitCode", String(report.policy.exitCode)]],
    cases: [{ name: "run", classname: "a2a-evidence", outcome: errorOutcome(e, "nothing could be verified") }],
  };
}

// XML 1.0 §2.2 Char excludes most C0 controls, lone surrogates, U+FFFE and U+FFFF: those are
// replaced (untrusted.ts), never emitted. Tab and line feed are kept; in attributes they are
// written as character references so that attribute-value normalisation does not turn them into
// spaces.
function text(s: string): string {
  return visible(s, "\t\n").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function attr(s: string): string {
  return text(s).replace(/"/g, "&quot;").replace(/'/g, "&apos;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;");
}

function attrs(list: readonly (readonly [string, string])[]): string {
  return list.map(([k, v]) => ` ${k}="${attr(v)}"`).join("");
}
