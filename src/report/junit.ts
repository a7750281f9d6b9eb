/**
 * JUnit XML for CI test views (the Jenkins/Ant `junit-10.xsd` shape: testsuites › testsuite ›
 * testcase with failure, skipped or error). One testsuite per input, one testcase per property,
 * one more for the policy. No timestamps or durations: the same report gives the same bytes.
 *
 * The test view must never let through what the exit code stops (contract §9.26), and must count
 * each finding once:
 * - a FAIL is a `<failure>` of its property's testcase (type: the deciding check's id);
 * - a property the policy requires and that is not PASS is a `<failure type="POLICY_NOT_MET">`;
 * - the `policy` testcase fails only for what no property testcase carries: the evidence level
 *   below the minimum, a requirement that names no property, or (for a report built elsewhere) an
 *   exit code that no failing testcase explains;
 * - a property that is not PASS and that nothing requires is `<skipped>`: it decides nothing;
 * - an input whose Task has not ended (exit 3) is one `<failure type="INPUT_EVIDENCE_PENDING">`,
 *   an input that could not be read (exit 2) one `<error>`. An input that was given is never
 *   skipped, and a run that verified nothing is one errored testcase, never "0 tests".
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
  propertyFinding,
  policyOwnReasons,
  policyReasons,
  requiredText,
} from "./explain.js";
import { inertReport, visible } from "./untrusted.js";

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

export function renderJunit(given: Report, options: RenderOptions): string {
  // Every line break and tab in the output is this renderer's own (contract §9.34).
  const report = inertReport(given);
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
    const finding = propertyFinding(report, name, p.state);
    if (finding !== undefined) {
      const type = finding === "FAIL" ? (first?.id ?? p.state) : POLICY_NOT_MET;
      const message =
        finding === "FAIL"
          ? `${type}: ${p.detail}`
          : `required, but ${p.state}: ${p.detail}${first ? ` [check ${first.id}]` : ""}`;
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
  cases.push(policyCase(input, report, levelLine));
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

const POLICY_NOT_MET = "POLICY_NOT_MET";

/**
 * The `policy` testcase: it states the exit code and the evidence level, and fails only for what
 * no property testcase already carries, so that a finding counts once. When no testcase failed,
 * every reason for a non-zero exit is its own (a gate's report never passes what its exit stops).
 */
function policyCase(input: VerifiedInput, report: Report, levelLine: string): TestCase {
  const base = { name: "policy", classname: input.source };
  const exit = `exit ${input.exitCode}: ${exitMeaning(input.exitCode)}`;
  if (input.exitCode === 0) return { ...base, out: `${exit}\n${levelLine}` };
  const reasons = policyReasons(input);
  const own = policyOwnReasons(report, input);
  if (own.length === 0)
    return { ...base, out: [`${exit}: see the failing testcases`, ...reasons, levelLine].join("\n") };
  return {
    ...base,
    outcome: {
      kind: "failure",
      type: input.exitCode === 1 ? "FAIL" : POLICY_NOT_MET,
      message: `${exit}: ${own.join("; ")}`,
      body: [...reasons, levelLine].join("\n"),
    },
  };
}

function checkWithValues(c: Parameters<typeof checkLine>[0]): string {
  return [`${c.state} ${checkLine(c)}`, ...checkValues(c).map(([k, v]) => `    ${k}: ${v}`)].join("\n");
}

function errorOutcome(e: InputError, what: string): Outcome {
  return { kind: "error", type: e.code, message: errorText(e), body: `exit 2: ${what}` };
}

function failedSuite(input: FailedInput): Suite {
  // A Task that has not ended is not an error of the input, but it is not a pass either: exit 3.
  const outcome: Outcome =
    input.exitCode === 3
      ? {
          kind: "failure",
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
