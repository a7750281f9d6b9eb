/**
 * One self-contained HTML page for a person who is not going to read JSON: the evidence chain from
 * the payload to continuity, each property's state with the checks behind it and the values they
 * compared, the notes, the evidence level and the policy.
 *
 * The page has no script at all and loads nothing: one inline style block, allowed by its hash in
 * a Content-Security-Policy that otherwise permits nothing (no fetch, image, font, frame, form or
 * base URL), so even an escaping mistake could not run code or call out. It works from `file://`,
 * reads without JavaScript and prints. Every string from the report is HTML-escaped after
 * disguising characters are made visible (untrusted.ts).
 */
import { createHash } from "node:crypto";
import {
  PROPERTY_NAMES,
  isFailedInput,
  type Check,
  type FailedInput,
  type InputError,
  type InputReport,
  type PropertyName,
  type Report,
  type State,
  type VerifiedInput,
} from "./model.js";
import type { RenderOptions } from "./options.js";
import {
  checkOperator,
  checkValues,
  exitMeaning,
  notVerifiedMeaning,
  inputMinimum,
  isRequired,
  minimumText,
  policyReasons,
  requiredText,
} from "./explain.js";
import { visible } from "./untrusted.js";
import { inputRow, summarize } from "./summary.js";
import { EXIT_ORDER } from "../policy.js";

/** The links of the chain, in the order each one commits to the previous (contract §4). */
const CHAIN: readonly { readonly step: string; readonly what: string; readonly properties: readonly PropertyName[] }[] =
  [
    {
      step: "Payload",
      what: "the Task Evidence payload describes the Task that was observed: ids, terminal state, artifacts, transcript",
      properties: ["taskBinding"],
    },
    {
      step: "Evidence ID",
      what: "the evidence ID and the manifest digest are recomputed from the payload",
      properties: ["contentBinding"],
    },
    {
      step: "Signed capsule",
      what: "the producer key signed the capsule that commits to the evidence ID, and the trust file authorises that key",
      properties: ["producerSignature", "identityAuthorityBinding"],
    },
    {
      step: "Log leaf",
      what: "the capsule is a leaf of the producer's append-only log",
      properties: ["localInclusion"],
    },
    { step: "Checkpoint", what: "the log's checkpoint over that leaf is signed", properties: ["checkpointSignature"] },
    {
      step: "Receipts",
      what: "a pinned Transparency Service registered the checkpoint",
      properties: ["externalRegistration"],
    },
    {
      step: "Continuity",
      what: "an independent witness vouched for the log's history since the prior checkpoint",
      properties: ["continuity"],
    },
  ];

/** Every other property, in report order: what the chain does not cover, including properties added later. */
const AROUND: readonly PropertyName[] = PROPERTY_NAMES.filter(
  (p) => !CHAIN.some((link) => link.properties.includes(p)),
);

const LEVEL_NEEDS = [
  ["SIGNED_RECORD", "contentBinding and producerSignature PASS"],
  ["EXTERNALLY_REGISTERED", "also localInclusion, checkpointSignature and externalRegistration PASS"],
  ["CONTINUITY_WITNESSED", "also continuity PASS"],
] as const;

const SYMBOL: Record<State, string> = { PASS: "✔", FAIL: "✘", INCONCLUSIVE: "?", NOT_CHECKED: "–", NOT_PRESENT: "○" };

const CSS = `
:root { --pass: #17692f; --fail: #b3161b; --inconclusive: #8a5a00; --not-checked: #1d4f91; --not-present: #555b61; --line: #d0d4d9; --soft: #f4f5f7; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1.5rem; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1b1f24; background: #fff; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .5rem; padding-top: 1rem; border-top: 3px solid #1b1f24; overflow-wrap: anywhere; }
h3 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
h4 { font-size: .95rem; margin: 1rem 0 .25rem; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: .88em; overflow-wrap: anywhere; }
.lead { color: #444c56; margin: 0 0 1rem; }
.banner { border: 2px solid var(--line); border-left-width: .5rem; padding: .6rem .9rem; margin: .75rem 0; background: var(--soft); }
.banner.exit-0 { border-color: var(--pass); }
.banner.exit-1, .banner.exit-2 { border-color: var(--fail); }
.banner.exit-3 { border-color: var(--inconclusive); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .5rem 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.badge { display: inline-block; min-width: 8.5rem; padding: .05rem .45rem; border-radius: .25rem; font-weight: 700; font-size: .8rem; letter-spacing: .02em; color: #fff; white-space: nowrap; }
.badge.PASS { background: var(--pass); }
.badge.FAIL { background: var(--fail); }
.badge.INCONCLUSIVE { background: var(--inconclusive); }
.badge.NOT_CHECKED { background: var(--not-checked); }
.badge.NOT_PRESENT { background: var(--not-present); }
ol.chain { list-style: none; margin: 0; padding: 0; }
ol.chain > li { position: relative; border: 1px solid var(--line); border-left: .4rem solid var(--not-present); border-radius: .3rem; padding: .5rem .8rem; margin: 0 0 1.4rem; break-inside: avoid; }
ol.chain > li + li::before { content: "↓"; position: absolute; top: -1.35rem; left: 1.2rem; font-size: 1rem; color: #444c56; }
ol.chain > li.PASS { border-left-color: var(--pass); }
ol.chain > li.FAIL { border-left-color: var(--fail); }
ol.chain > li.INCONCLUSIVE { border-left-color: var(--inconclusive); }
ol.chain > li.NOT_CHECKED { border-left-color: var(--not-checked); }
.step { font-weight: 700; }
.what { color: #444c56; }
ul.props { list-style: none; margin: .3rem 0 0; padding: 0; }
ul.props li { margin: .15rem 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; margin: .3rem 0 .8rem; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: var(--soft); }
td.state { white-space: nowrap; }
table.fixed { table-layout: fixed; }
th.c-name { width: 17rem; }
th.c-id { width: 17%; }
th.c-state { width: 10rem; }
th.c-detail { width: 40%; }
tr.FAIL td:first-child { box-shadow: inset .3rem 0 var(--fail); }
dl.values { display: grid; grid-template-columns: max-content 1fr; gap: 0 .6rem; margin: 0; }
dl.values dt { color: #444c56; }
dl.values dd { margin: 0; }
.detail { white-space: pre-wrap; }
footer { margin-top: 2.5rem; padding-top: .6rem; border-top: 1px solid var(--line); color: #444c56; font-size: .85rem; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  h2 { break-before: page; }
  section.input:first-of-type h2 { break-before: auto; }
  table, tr, ol.chain > li, .banner { break-inside: avoid; }
  .badge { color: #000; background: none !important; border: 1px solid #000; }
  a { color: inherit; text-decoration: none; }
}
`;

/**
 * What a page over several inputs adds: the sticky line with the run's exit code and counts, and
 * the table of inputs. A page over one input has the style above alone, so it stays as it was.
 */
const BATCH_CSS = `
.sticky { position: sticky; top: 0; z-index: 1; margin: 0 -1.5rem; padding: .45rem 1.5rem; background: #fff; border-bottom: 3px solid var(--line); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.sticky.exit-0 { border-bottom-color: var(--pass); }
.sticky.exit-1, .sticky.exit-2 { border-bottom-color: var(--fail); }
.sticky.exit-3 { border-bottom-color: var(--inconclusive); }
section.input, section.checks, section.summary { scroll-margin-top: 3rem; }
th.c-exit { width: 4rem; }
th.c-level { width: 14rem; }
th.c-input { width: 30%; }
table.inputs tr.exit-1 td:first-child, table.inputs tr.exit-2 td:first-child { box-shadow: inset .3rem 0 var(--fail); }
table.inputs tr.exit-3 td:first-child { box-shadow: inset .3rem 0 var(--inconclusive); }
@media print {
  .sticky { position: static; margin: 0; padding: .3rem 0; white-space: normal; }
}
`;

const csp = new Map<string, string>();
/** The page's Content-Security-Policy for its style, made when a page is first rendered (not by every run that loads this module). */
function contentSecurityPolicy(css: string): string {
  let policy = csp.get(css);
  if (policy === undefined) {
    policy = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(css).digest("base64")}'; img-src 'none'; font-src 'none'; base-uri 'none'; form-action 'none'`;
    csp.set(css, policy);
  }
  return policy;
}

export function renderHtml(report: Report, _options: RenderOptions): string {
  const title =
    report.inputs.length === 1 && report.inputs[0]
      ? `a2a-evidence report: ${report.inputs[0].source}`
      : "a2a-evidence report";
  const batch = report.inputs.length > 1;
  const css = batch ? CSS + BATCH_CSS : CSS;
  const body: string[] = [
    ...(batch ? [stickySummary(report)] : []),
    `<header>`,
    `<h1>A2A Task Evidence report</h1>`,
    `<p class="lead">Every property is reported on its own; there is no overall "trusted" verdict. ${esc(report.tool.name)} ${esc(report.tool.version)}.</p>`,
    `<div class="banner exit-${esc(String(report.policy.exitCode))}"><strong>Exit ${esc(String(report.policy.exitCode))}</strong>: ${esc(exitMeaning(report.policy.exitCode))}. Policy: minimum evidence <code>${esc(minimumText(report))}</code>; required properties: ${esc(requiredText(report))}${report.inputs.length > 1 ? `; the exit code is the worst of ${report.inputs.length} inputs (1 > 2 > 3 > 0)` : ""}.${unreadNote(report)}</div>`,
    `</header>`,
    `<main>`,
  ];
  if (report.error)
    body.push(`<div class="banner exit-2"><strong>Nothing was verified.</strong> ${errorHtml(report.error)}</div>`);
  if (batch) body.push(...inputsTable(report));
  report.inputs.forEach((input, i) =>
    body.push(...(isFailedInput(input) ? failedInput(input, i) : verifiedInput(input, i, report))),
  );
  body.push(
    `</main>`,
    `<footer>Made offline by ${esc(report.tool.name)} ${esc(report.tool.version)}. This page contains no script and loads nothing; everything shown is in this file. Timestamps in the evidence are reported, never trusted as proof of time.</footer>`,
  );
  return [
    `<!DOCTYPE html>`,
    `<html lang="en">`,
    `<head>`,
    `<meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy(css))}">`,
    `<meta name="referrer" content="no-referrer">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${esc(title)}</title>`,
    `<style>${css}</style>`,
    `</head>`,
    `<body>`,
    ...body,
    `</body>`,
    `</html>`,
    ``,
  ].join("\n");
}

function verifiedInput(input: VerifiedInput, index: number, report: Report): string[] {
  const id = `input-${index + 1}`;
  const reasons = policyReasons(input);
  return [
    `<section class="input" id="${id}">`,
    ...inputHeading(input, reasons),
    ...evidenceChain(input, id),
    ...propertiesTable(input, id, report),
    ...checksSections(input, id),
    ...levelAndPolicy(input, report, reasons),
    ...notesAndContent(input, id),
    `</section>`,
  ];
}

/** The input's name, its exit code and level, and where its evidence was found. */
function inputHeading(input: VerifiedInput, reasons: readonly string[]): string[] {
  return [
    `<h2>${esc(input.source)}</h2>`,
    `<div class="banner exit-${esc(String(input.exitCode))}"><strong>Exit ${esc(String(input.exitCode))}</strong>: ${esc(exitMeaning(input.exitCode))}${reasons.length > 0 ? `: ${esc(reasons.join("; "))}` : ""}. Evidence level achieved: <strong>${esc(input.evidenceLevel.achieved)}</strong>.</div>`,
    `<dl class="facts">`,
    `<dt>input shape</dt><dd>${esc(input.shape)}</dd>`,
    `<dt>bundle found at</dt><dd><code>${esc(input.locations.join(", ") || "none")}</code></dd>`,
    `<dt>record profile</dt><dd><code>${esc(input.recordProfile ?? "none")}</code></dd>`,
    `<dt>evidence ID</dt><dd><code>${esc(input.evidenceId ?? "none")}</code></dd>`,
    `</dl>`,
  ];
}

/** The chain from the payload to continuity, each link with its properties, then the properties around it. */
function evidenceChain(input: VerifiedInput, id: string): string[] {
  const item = (p: PropertyName): string =>
    `<li>${badge(input.properties[p].state)} <a href="#${id}-${p}">${p}</a>: ${esc(input.properties[p].detail)}</li>`;
  const out = [`<h3>Evidence chain</h3>`, `<ol class="chain">`];
  for (const link of CHAIN) {
    const states = link.properties.map((p) => input.properties[p].state);
    out.push(
      `<li class="${esc(chainState(states))}"><span class="step">${esc(link.step)}</span> — <span class="what">${esc(link.what)}</span>`,
      ...(link.step === "Evidence ID" && input.evidenceId !== null
        ? [`<div><code>${esc(input.evidenceId)}</code></div>`]
        : []),
      `<ul class="props">`,
      ...link.properties.map(item),
      `</ul></li>`,
    );
  }
  out.push(`</ol>`, `<h4>Around the chain</h4>`, `<ul class="props">`, ...AROUND.map(item), `</ul>`);
  return out;
}

/** One row per property: its state and detail, marked when the policy requires it. */
function propertiesTable(input: VerifiedInput, id: string, report: Report): string[] {
  return [
    `<h3>Properties</h3>`,
    `<table class="properties fixed">`,
    `<thead><tr><th class="c-name">property</th><th class="c-state">state</th><th>detail</th></tr></thead>`,
    `<tbody>`,
    ...PROPERTY_NAMES.map((p) => {
      const r = input.properties[p];
      return `<tr class="property ${esc(r.state)}" data-property="${p}"><td><a href="#${id}-${p}">${p}</a>${isRequired(report, p) ? " (required)" : ""}</td><td class="state">${badge(r.state)}</td><td class="detail">${esc(r.detail)}</td></tr>`;
    }),
    `</tbody>`,
    `</table>`,
  ];
}

/** For each property, the checks that decided it and the values they compared. */
function checksSections(input: VerifiedInput, id: string): string[] {
  const out = [`<h3>Checks behind each property</h3>`];
  for (const p of PROPERTY_NAMES) {
    const r = input.properties[p];
    out.push(
      `<section class="checks" id="${id}-${p}">`,
      `<h4>${p} ${badge(r.state)}</h4>`,
      `<table class="fixed"><thead><tr><th class="c-id">check</th><th class="c-state">state</th><th class="c-detail">detail</th><th>values compared</th></tr></thead><tbody>`,
      ...r.checks.map((c) => checkRow(c)),
      `</tbody></table>`,
      `</section>`,
    );
  }
  return out;
}

/** The evidence level achieved, claimed, negotiated and required, and why the policy does not hold. */
function levelAndPolicy(input: VerifiedInput, report: Report, reasons: readonly string[]): string[] {
  const lvl = input.evidenceLevel;
  return [
    `<h3>Evidence level</h3>`,
    `<dl class="facts">`,
    `<dt>achieved</dt><dd><strong>${esc(lvl.achieved)}</strong> (derived from the properties, never from the claim)</dd>`,
    `<dt>claimed by the producer</dt><dd>${esc(lvl.claimed ?? "none")}</dd>`,
    `<dt>negotiated by the caller</dt><dd>${esc(lvl.negotiated ?? "none")}</dd>`,
    `<dt>minimum for exit 0</dt><dd>${esc(inputMinimum(report, input))}</dd>`,
    `</dl>`,
    `<ul>`,
    ...LEVEL_NEEDS.map(([level, needs]) => `<li><code>${level}</code> needs ${needs}.</li>`),
    `</ul>`,
    `<h3>Policy</h3>`,
    `<p><strong>Exit ${esc(String(input.exitCode))}</strong>: ${esc(exitMeaning(input.exitCode))}.</p>`,
    ...(reasons.length > 0 ? [`<ul class="reasons">`, ...reasons.map((r) => `<li>${esc(r)}</li>`), `</ul>`] : []),
  ];
}

/** The input's notes, and where the Task's messages and artifacts are accounted for. */
function notesAndContent(input: VerifiedInput, id: string): string[] {
  return [
    `<h3>Notes</h3>`,
    input.notes.length > 0
      ? `<ul class="notes">${input.notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>`
      : `<p>None.</p>`,
    `<h3>Messages and artifacts</h3>`,
    `<p>This report does not carry the Task's messages or artifacts. Their commitments, and the values recomputed from what was observed, are in the <a href="#${id}-taskBinding">taskBinding</a> checks above.</p>`,
  ];
}

/**
 * The line that stays at the top of a page over several inputs: the run's exit code, how many
 * inputs ended in each, and a link to the first input that decided the exit code. One line, so it
 * never hides the heading a link scrolls to; a long name is cut on screen (whole in the table).
 */
function stickySummary(report: Report): string {
  const tally = summarize(report.inputs);
  const code = report.policy.exitCode;
  const counts = EXIT_ORDER.map((c) => ({ c, n: tally.sourcesOf(c).total }))
    .filter(({ n }) => n > 0)
    .map(({ c, n }) => `exit ${c}: ${n}`);
  const first = code === 0 ? -1 : report.inputs.findIndex((i) => i.exitCode === code);
  const worst =
    first < 0
      ? ""
      : ` · first exit ${code}: <a href="#input-${first + 1}">${esc((report.inputs[first] as InputReport).source)}</a>`;
  return `<div class="sticky exit-${esc(String(code))}"><strong>Exit ${esc(String(code))}</strong>, the worst of ${report.inputs.length} inputs · ${counts.join(" · ")} · <a href="#inputs">all inputs</a>${worst}</div>`;
}

/** The longest reason a row of the table of inputs shows; the input's section has it whole. */
const ROW_REASON = 240;

/** A page over several inputs opens with one row per input, linked to its section. */
function inputsTable(report: Report): string[] {
  const rows = report.inputs.map((input, i) => {
    const row = inputRow(input);
    return `<tr class="input exit-${esc(String(row.exitCode))}"><td><a href="#input-${i + 1}">${esc(row.source)}</a></td><td>${esc(String(row.exitCode))}</td><td>${esc(row.achieved ?? "not verified")}</td><td class="detail">${esc(shortened(row.reason ?? exitMeaning(0), ROW_REASON))}</td></tr>`;
  });
  return [
    `<section class="summary" id="inputs">`,
    `<h2>Inputs</h2>`,
    `<table class="inputs fixed">`,
    `<thead><tr><th class="c-input">input</th><th class="c-exit">exit</th><th class="c-level">achieved level</th><th>first FAIL, unmet requirement or error</th></tr></thead>`,
    `<tbody>`,
    ...rows,
    `</tbody>`,
    `</table>`,
    `</section>`,
  ];
}

/** At most `max` characters: a longer text is cut and ends with an ellipsis. */
function shortened(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

function failedInput(input: FailedInput, index: number): string[] {
  return [
    `<section class="input" id="input-${index + 1}">`,
    `<h2>${esc(input.source)}</h2>`,
    `<div class="banner exit-${input.exitCode}"><strong>Exit ${input.exitCode}</strong>: ${esc(notVerifiedMeaning(input))}. ${errorHtml(input.error)}</div>`,
    `</section>`,
  ];
}

/** Inputs that could not be read, named in the banner even when a FAIL decides the run's exit. */
function unreadNote(report: Report): string {
  const unread = report.inputs.filter((i) => i.exitCode === 2);
  if (report.policy.exitCode === 2 || unread.length === 0) return "";
  return ` ${unread.length} input(s) could not be verified: ${unread.map((i) => `<code>${esc(i.source)}</code>`).join(", ")}.`;
}

function checkRow(c: Check): string {
  const operator = checkOperator(c);
  const extra = [
    ...(c.subject ? [`<div>about <code>${esc(c.subject)}</code></div>`] : []),
    ...(c.code ? [`<div>code <code>${esc(c.code)}</code></div>`] : []),
    ...(operator ? [`<div>operator <strong>${esc(operator)}</strong></div>`] : []),
  ].join("");
  const values = checkValues(c);
  const valuesHtml =
    values.length > 0
      ? `<dl class="values">${values.map(([k, v]) => `<dt>${esc(k)}</dt><dd><code>${esc(v)}</code></dd>`).join("")}</dl>`
      : "";
  return `<tr class="check ${esc(c.state)}"><td><code>${esc(c.id)}</code>${extra}</td><td class="state">${badge(c.state)}</td><td class="detail">${esc(c.detail)}</td><td>${valuesHtml}</td></tr>`;
}

function errorHtml(e: InputError): string {
  return `<code>${esc(e.code)}</code>: ${esc(e.message)}${e.path ? ` at <code>${esc(e.path)}</code>` : ""}`;
}

/** A chain link is as weak as its weakest property, in decide()'s order. */
function chainState(states: readonly State[]): State {
  for (const s of ["FAIL", "INCONCLUSIVE", "NOT_CHECKED", "NOT_PRESENT"] as const) if (states.includes(s)) return s;
  return "PASS";
}

function badge(s: State): string {
  return `<span class="badge ${esc(s)}">${SYMBOL[s] ?? ""} ${esc(s)}</span>`;
}

function esc(s: string): string {
  return visible(s, "\t\n")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
