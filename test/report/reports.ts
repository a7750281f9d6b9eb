/**
 * Reports for the renderer tests: one per shipped vector (built with verify(), as the CLI does),
 * reports with inputs that could not be read, and a report whose every free-text field is hostile.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { it } from "vitest";
import { join } from "node:path";
import { verify, type VerifyRequest } from "../../src/verify.js";
import {
  PROPERTY_NAMES,
  isFailedInput,
  type Check,
  type PropertyName,
  type Report,
  type State,
  type VerifiedInput,
} from "../../src/report/model.js";
import { makeStyle } from "../../src/report/style.js";
import type { RenderOptions } from "../../src/report/options.js";
import { REPO_ROOT } from "../helpers/external.js";
import { vectorExtra, vectorInput, vectorInputFile } from "../helpers/vector-input.js";

export const PLAIN: RenderOptions = { verbose: false, style: makeStyle(false) };
export const VERBOSE: RenderOptions = { verbose: true, style: makeStyle(false) };

const VECTORS = join(REPO_ROOT, "vectors");
const ALL_VECTOR_NAMES = readdirSync(VECTORS)
  .filter((n) => existsSync(join(VECTORS, n, "expected.json")))
  .sort();
const isPendingVector = (n: string) =>
  (JSON.parse(readFileSync(join(VECTORS, n, "expected.json"), "utf8")) as { properties: unknown }).properties === null;
/** The vectors whose input is verified: every one but the pending-* Tasks, which have not ended. */
export const VECTOR_NAMES = ALL_VECTOR_NAMES.filter((n) => !isPendingVector(n));
/** A Task that has not ended: INPUT_EVIDENCE_PENDING, exit 3, nothing verified. */
export const PENDING_VECTOR_NAMES = ALL_VECTOR_NAMES.filter(isPendingVector);

export interface Expected {
  readonly exitCode: 0 | 1 | 2 | 3;
  readonly properties: Record<PropertyName, State>;
  readonly evidenceLevel: string;
}

export function expectedOf(name: string): Expected {
  return JSON.parse(readFileSync(join(VECTORS, name, "expected.json"), "utf8")) as Expected;
}

/** The source a vector's report names: its input file, relative to the repository. */
export function vectorSource(name: string): string {
  return `vectors/${name}/${vectorInputFile(join(VECTORS, name))}`;
}

export function vectorFile(name: string, file: string): Buffer {
  return readFileSync(join(VECTORS, name, file));
}

/** The report of one shipped vector under the default policy (plus `extra`), as `verify` gives it. */
export function vectorReport(name: string, extra: Partial<VerifyRequest> = {}): Report {
  return verify({
    inputs: [{ source: vectorSource(name), data: vectorInput(join(VECTORS, name)) }],
    ...vectorExtra(join(VECTORS, name)),
    trust: vectorFile(name, "trust.json"),
    ...extra,
  });
}

export function onlyVerified(report: Report): VerifiedInput {
  const input = report.inputs[0];
  if (input === undefined || isFailedInput(input)) throw new Error(`not a verified input: ${JSON.stringify(input)}`);
  return input;
}

/** One good input, one that could not be read, one that is not JSON: exit 2 overall. */
export function mixedReport(): Report {
  return verify({
    inputs: [
      { source: "vectors/valid-minimal/input.json", data: vectorFile("valid-minimal", "input.json") },
      { source: "missing.json", readError: "no such file" },
      { source: "garbage.json", data: "{not json" },
    ],
    trust: vectorFile("valid-minimal", "trust.json"),
  });
}

/** An invalid trust file: nothing is verified and the report carries only `error`. */
/**
 * Five inputs in one run, under valid-minimal's trust file: a PASS, a Task that has not ended, an
 * input whose producer the trust file does not pin, a file that is not evidence, and last a
 * bundle whose signature was tampered with. Exit 1.
 */
export const BATCH_SOURCES = [
  vectorSource("valid-minimal"),
  vectorSource("pending-input-required-never-resumed"),
  vectorSource("valid-rich"),
  "notes.json",
  vectorSource("neg-producerSignature-signature-byte"),
] as const;

export function batchReport(): Report {
  const data = (source: string) =>
    source === "notes.json" ? '{"hello": "not evidence"}' : vectorInput(join(VECTORS, source.split("/")[1] as string));
  return verify({
    inputs: BATCH_SOURCES.map((source) => ({ source, data: data(source) })),
    trust: vectorFile("valid-minimal", "trust.json"),
  });
}

export function trustErrorReport(): Report {
  return verify({
    inputs: [{ source: "vectors/valid-minimal/input.json", data: vectorFile("valid-minimal", "input.json") }],
    trust: '{"version": 99}',
  });
}

/**
 * Everything an attacker may put in a string the report shows: markup and attribute breakers for
 * HTML and XML, workflow-command injections for GitHub (a line break then a command, one already
 * percent-encoded), Markdown table and link breakers, characters XML 1.0 forbids, terminal escapes,
 * a bidi override and lone surrogates.
 */
export const HOSTILE =
  `<script>alert(1)</script></style></title><img src=x onerror=alert(1)>" onmouseover="alert(2)' onfocus='x' ` +
  `& &amp; &#x3c; ]]> <!-- --> \n::error::owned\r\n::stop-commands::tok\r::add-mask::secret %0A::error::pct %25 ` +
  `| cell | \`code\` [link](https://evil.example) ![i](x) $x$ *b* _i_ ~s~ # ` +
  `\u0000\u0001\u0008\u000b\u000c\u001b[31m\u007f\u0085\u2028\u202eLIAF\ud800 \udfff\ufffe\uffff end`;

/**
 * The report of a FAILing vector with every free-text field replaced by HOSTILE (states, shapes,
 * levels and property names stay as the model types them), and the fields the model may gain
 * (`operator` on a check, a policy `reasons` list) present and hostile too.
 */
export function hostileReport(require: PropertyName[] = []): Report {
  const base = vectorReport("neg-taskBinding-artifact-commitment", { require });
  const input = onlyVerified(base);
  const hostileCheck = (c: Check): Check =>
    ({
      ...c,
      id: `${c.id}${HOSTILE}`,
      detail: HOSTILE,
      subject: HOSTILE,
      ...(c.code !== undefined ? { code: `${c.code}${HOSTILE}` as Check["code"] } : {}),
      values: { [`key${HOSTILE}`]: HOSTILE, plain: "ok" },
      operator: HOSTILE,
    }) as Check;
  const properties = Object.fromEntries(
    PROPERTY_NAMES.map((p) => [
      p,
      { ...input.properties[p], detail: HOSTILE, checks: input.properties[p].checks.map(hostileCheck) },
    ]),
  ) as unknown as VerifiedInput["properties"];
  const verified: VerifiedInput = {
    ...input,
    source: `task${HOSTILE}.json`,
    locations: [HOSTILE],
    recordProfile: HOSTILE,
    evidenceId: HOSTILE,
    properties,
    evidenceLevel: { ...input.evidenceLevel, claimed: HOSTILE, negotiated: HOSTILE },
    notes: [HOSTILE],
    reasons: [HOSTILE],
  } as VerifiedInput;
  return {
    ...base,
    tool: { name: "a2a-evidence", version: HOSTILE },
    inputs: [
      verified,
      {
        source: `failed${HOSTILE}`,
        error: { code: "INPUT_UNKNOWN_SHAPE", message: HOSTILE, path: HOSTILE },
        exitCode: 2,
      },
    ] as Report["inputs"],
    policy: { ...base.policy, exitCode: 2 },
    error: { code: "TRUST_SCHEMA", message: HOSTILE, path: HOSTILE },
  } as Report;
}

/** The first check that decided a property (decide(): the first one in the property's state). */
export function decidingId(input: VerifiedInput, p: PropertyName): string | undefined {
  return input.properties[p].checks.find((c) => c.state === input.properties[p].state)?.id;
}

/** Required by the default policy unless --min-evidence NONE (contract §6): who signed it, and is it the observed Task's record. */
export const REQUIRED_BY_DEFAULT: readonly PropertyName[] = ["identityAuthorityBinding", "taskBinding"];

/** How the formats name a property in a listing: with "(required)" when the default policy requires it. */
export function label(p: PropertyName): string {
  return REQUIRED_BY_DEFAULT.includes(p) ? `${p} (required)` : p;
}

/**
 * A shipped vector's evidence bundle on its own (a bare bundle input): the first object in the
 * input that has the bundle's members, wherever the carrier put it (a data part here).
 */
export function bareBundle(name: string): string {
  const find = (v: unknown): unknown => {
    if (typeof v !== "object" || v === null) return undefined;
    if (!Array.isArray(v) && "extensionVersion" in v && "evidenceId" in v && "taskEvidencePayload" in v) return v;
    for (const x of Object.values(v)) {
      const found = find(x);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const bundle = find(JSON.parse(vectorFile(name, "input.json").toString("utf8")));
  if (bundle === undefined) throw new Error(`${name}: no bundle found as a JSON value`);
  return JSON.stringify(bundle);
}

/** One test per shipped vector, given its expectation, its report and that report's one input. */
export function eachVector(
  test: (v: { name: string; source: string; expected: Expected; report: Report; input: VerifiedInput }) => void,
): void {
  for (const name of VECTOR_NAMES) {
    it(name, () => {
      const report = vectorReport(name);
      test({
        name,
        source: vectorSource(name),
        expected: expectedOf(name),
        report,
        input: onlyVerified(report),
      });
    });
  }
}
