import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { renderHtml } from "../../src/report/html.js";
import { PROPERTY_NAMES } from "../../src/report/model.js";
import {
  BATCH_SOURCES,
  PENDING_VECTOR_NAMES,
  PLAIN,
  VERBOSE,
  batchReport,
  eachVector,
  hostileReport,
  mixedReport,
  trustErrorReport,
  vectorReport,
} from "./reports.js";

/** Vector text has no disguising characters, so escaping it is only the five entities. */
function entities(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const TAGS = new Set(
  "html head meta title style body header main section footer h1 h2 h3 h4 p div span strong code a dl dt dd ol ul li table thead tbody tr th td".split(
    " ",
  ),
);
const ATTRIBUTES = new Set([
  "lang",
  "charset",
  "http-equiv",
  "content",
  "name",
  "class",
  "id",
  "data-property",
  "href",
]);

/**
 * What the page may contain at most: only the elements and attributes the renderer writes (every
 * `<` of the input is escaped, so each raw `<` here opens one of ours), links only to places in
 * the page, no script, no external anything, one style block, one CSP.
 */
function assertSelfContained(html: string): void {
  expect(html.startsWith("<!DOCTYPE html>\n")).toBe(true);
  const body = html.slice("<!DOCTYPE html>".length);
  for (const tag of body.matchAll(/<\/?([a-zA-Z0-9-]+)((?:\s+[a-z-]+="[^"]*")*)\s*>/g)) {
    expect(TAGS.has(tag[1] as string), `element <${tag[1]}>`).toBe(true);
    for (const a of (tag[2] as string).matchAll(/([a-z-]+)="([^"]*)"/g)) {
      expect(ATTRIBUTES.has(a[1] as string), `attribute ${a[1]}`).toBe(true);
      if (a[1] === "href") expect(a[2]).toMatch(/^#[a-zA-Z0-9-]+$/);
    }
  }
  // Every `<` is accounted for by a tag matched above, none left over from the input.
  const tags = [...body.matchAll(/<\/?([a-zA-Z0-9-]+)((?:\s+[a-z-]+="[^"]*")*)\s*>/g)].length;
  expect(body.split("<").length - 1).toBe(tags);
  expect(html.match(/<style>/g)).toHaveLength(1);
  expect(html.match(/<\/style>/g)).toHaveLength(1);
  const css = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? "";
  expect(css).not.toMatch(/url\(|@import|@font-face|expression\(/i);
  expect(css).toContain("@media print");
  // The policy allows nothing but this one style block, by its hash.
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? "";
  const hash = createHash("sha256").update(css).digest("base64");
  expect(csp.replace(/&#39;/g, "'")).toBe(
    `default-src 'none'; style-src 'sha256-${hash}'; img-src 'none'; font-src 'none'; base-uri 'none'; form-action 'none'`,
  );
  expect(html.indexOf("Content-Security-Policy")).toBeLessThan(html.indexOf("<style>"));
}

describe("html: the shipped vectors", () => {
  eachVector(({ expected, report, input }) => {
    const html = renderHtml(report, PLAIN);
    assertSelfContained(html);
    for (const p of PROPERTY_NAMES) {
      const state = expected.properties[p];
      const row = new RegExp(`<tr class="property ${state}" data-property="${p}">(.*?)</tr>`).exec(html)?.[1];
      expect(row, p).toBeDefined();
      expect(row).toContain(`<span class="badge ${state}">`);
      expect(row).toContain(`<td class="detail">${entities(input.properties[p].detail)}</td>`);
      // Every check behind the property is listed with its values.
      const section =
        new RegExp(`<section class="checks" id="input-1-${p}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? "";
      expect(section.match(/<tr class="check /g)).toHaveLength(input.properties[p].checks.length);
      for (const c of input.properties[p].checks)
        for (const v of Object.values(c.values ?? {})) expect(section).toContain(`<code>${entities(v)}</code>`);
    }
    expect(html).toContain(`<dt>achieved</dt><dd><strong>${expected.evidenceLevel}</strong>`);
    expect(html).toContain(`<p><strong>Exit ${expected.exitCode}</strong>`);
    for (const step of [
      "Payload",
      "Evidence ID",
      "Signed capsule",
      "Log leaf",
      "Checkpoint",
      "Receipts",
      "Continuity",
    ]) {
      expect(html).toContain(`<span class="step">${step}</span>`);
    }
  });

  it("the same input gives the same bytes", () => {
    expect(renderHtml(vectorReport("valid-rich"), PLAIN)).toBe(renderHtml(vectorReport("valid-rich"), PLAIN));
    expect(renderHtml(mixedReport(), VERBOSE)).toBe(renderHtml(mixedReport(), VERBOSE));
  });

  it("an input that could not be read, and a run that verified nothing, are shown as such", () => {
    const html = renderHtml(mixedReport(), PLAIN);
    assertSelfContained(html);
    expect(html).toMatch(
      /<h2>missing\.json<\/h2>\n<div class="banner exit-2"><strong>Exit 2<\/strong>: could not run: the input could not be verified\. <code>INPUT_UNREADABLE<\/code>: no such file<\/div>/,
    );
    expect(html).toContain("<h2>garbage.json</h2>");
    const run = renderHtml(trustErrorReport(), PLAIN);
    assertSelfContained(run);
    expect(run).toMatch(/<strong>Nothing was verified\.<\/strong> <code>TRUST_/);
  });
});

describe("html: a Task that has not ended", () => {
  it.each(PENDING_VECTOR_NAMES)("%s shows an exit-3 banner saying its evidence is pending", (name) => {
    const html = renderHtml(vectorReport(name), PLAIN);
    expect(html).toContain(
      '<div class="banner exit-3"><strong>Exit 3</strong>: the Task has not ended: its evidence is pending.',
    );
    expect(html).toContain("INPUT_EVIDENCE_PENDING");
  });
});

describe("html: hostile strings", () => {
  const html = renderHtml(hostileReport(["continuity"]), PLAIN);

  it("stays self-contained: no element, attribute or style block comes from the input", () => {
    assertSelfContained(html);
    expect(html).toContain(
      "&lt;script&gt;alert(1)&lt;/script&gt;&lt;/style&gt;&lt;/title&gt;&lt;img src=x onerror=alert(1)&gt;&quot; onmouseover=&quot;alert(2)&#39; onfocus=&#39;x&#39;",
    );
    expect(html).toContain("&amp;amp; &amp;#x3c;");
  });

  it("makes disguising characters visible instead of emitting them", () => {
    expect(html).not.toMatch(
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]/,
    );
    expect(html).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(html).toContain("\\u001b[31m\\u007f\\u0085\\u2028\\u202eLIAF\\ud800 \\udfff\\ufffe\\uffff end");
  });

  it("shows the operator a check carries", () => {
    expect(html).toContain("<div>operator <strong>&lt;script&gt;");
  });
});

/** The table of inputs' rows: exit class, link, name, exit, level, reason. */
function tableRows(html: string): RegExpMatchArray[] {
  return [
    ...html.matchAll(
      /<tr class="input exit-(\d)"><td><a href="#(input-\d+)">([^<]*)<\/a><\/td><td>(\d)<\/td><td>([^<]*)<\/td><td class="detail">([^<]*)<\/td><\/tr>/g,
    ),
  ];
}

describe("html: a page over several inputs", () => {
  const report = batchReport();
  const html = renderHtml(report, PLAIN);
  const rows = tableRows(html);

  it("opens with a table of its inputs: name, exit, achieved level and the first reason, each linked to its section", () => {
    assertSelfContained(html);
    expect(report.policy.exitCode).toBe(1);
    expect(rows.map((m) => [m[2], m[3], m[4], m[5]])).toEqual([
      ["input-1", BATCH_SOURCES[0], "0", "EXTERNALLY_REGISTERED"],
      ["input-2", BATCH_SOURCES[1], "3", "not verified"],
      ["input-3", BATCH_SOURCES[2], "3", "SIGNED_RECORD"],
      ["input-4", "notes.json", "2", "not verified"],
      ["input-5", BATCH_SOURCES[4], "1", "NONE"],
    ]);
    expect(rows.map((m) => m[1])).toEqual(["0", "3", "3", "2", "1"]);
    const reasons = rows.map((m) => m[6]);
    expect(reasons[0]).toBe("the policy holds");
    expect(reasons[1]).toMatch(/^INPUT_EVIDENCE_PENDING: /);
    expect(reasons[2]).toBe(
      "evidence level SIGNED_RECORD is below EXTERNALLY_REGISTERED (the negotiated minimumEvidence)",
    );
    expect(reasons[3]).toMatch(/^INPUT_UNKNOWN_SHAPE: /);
    expect(reasons[4]).toMatch(/^producerSignature FAIL: producer envelope does not verify /);
    for (const m of rows) expect(html).toContain(`<section class="input" id="${m[2]}">`);
    // The table comes before every input's section.
    expect(html.indexOf('<section class="summary" id="inputs">')).toBeLessThan(html.indexOf('id="input-1"'));
  });

  it("a sticky line gives the run's exit code, the count of each exit code and the first input that decided it", () => {
    const sticky = /<div class="sticky exit-1">(.*?)<\/div>/.exec(html)?.[1];
    expect(sticky).toBe(
      `<strong>Exit 1</strong>, the worst of 5 inputs · exit 1: 1 · exit 2: 1 · exit 3: 2 · exit 0: 1 · <a href="#inputs">all inputs</a> · first exit 1: <a href="#input-5">${BATCH_SOURCES[4]}</a>`,
    );
    expect(html.indexOf('<div class="sticky')).toBeLessThan(html.indexOf("<header>"));
    expect(html).toMatch(/\.sticky \{ position: sticky; top: 0;/);
  });

  it("a long reason is cut in the table and whole in the input's section", () => {
    const long = "x".repeat(1000);
    const cut = renderHtml(
      {
        ...report,
        inputs: report.inputs.map((i) => ("error" in i ? { ...i, error: { ...i.error, message: long } } : i)),
      },
      PLAIN,
    );
    const cell = /<tr class="input exit-2">.*?<td class="detail">([^<]*)<\/td>/.exec(cut)?.[1] ?? "";
    expect([...cell]).toHaveLength(240);
    expect(cell.endsWith("x…")).toBe(true);
    expect(cut).toContain(long);
  });

  it("a page over one input has neither, and its style is the one-input style", () => {
    const one = renderHtml(vectorReport("valid-minimal"), PLAIN);
    expect(one).not.toContain('class="sticky');
    expect(one).not.toContain('class="summary"');
    expect(one).not.toContain(".sticky");
    const css = (page: string) => /<style>([\s\S]*)<\/style>/.exec(page)?.[1] ?? "";
    expect(css(html).startsWith(css(one))).toBe(true);
    expect(css(one)).toBe(css(renderHtml(vectorReport("neg-taskBinding-task-id"), PLAIN)));
  });
});

describe("html: the table of inputs under hostile names and reasons", () => {
  const base = batchReport();
  const hostile = `::add-mask::<script>alert(1)</script>\u202eSSAP\u2066 "' ${"n".repeat(3000)}`;
  const report = {
    ...base,
    inputs: base.inputs.map((i) =>
      "error" in i
        ? { ...i, source: hostile, error: { ...i.error, message: `PASS</td><td>PASS \u202e${hostile}` } }
        : {
            ...i,
            source: hostile,
            ...(i.exitCode === 1 ? { reasons: i.reasons.map((r) => r.replace(/: .*/, ": PASS\u202e PASS")) } : {}),
          },
    ),
  };
  const html = renderHtml(report, PLAIN);
  const rows = tableRows(html);

  it("keeps one row per input, each linked to its own section though every name is the same", () => {
    assertSelfContained(html);
    expect(rows.map((m) => m[2])).toEqual(["input-1", "input-2", "input-3", "input-4", "input-5"]);
    for (const m of rows) expect(html.split(`id="${m[2]}"`)).toHaveLength(2);
    expect(html).not.toContain("<script>");
    expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(rows[0]?.[3]).toContain("::add-mask::&lt;script&gt;");
  });

  it("a FAIL row's reason still names the FAIL, an error row its code, whatever the text after it says", () => {
    const byExit = new Map(rows.map((m) => [m[4], m[6] ?? ""]));
    expect(byExit.get("1")).toMatch(/^producerSignature FAIL: PASS\\u202e PASS$/);
    expect(byExit.get("2")).toMatch(/^INPUT_UNKNOWN_SHAPE: PASS&lt;\/td&gt;&lt;td&gt;PASS \\u202e::add-mask::/);
    const sticky = /<div class="sticky exit-1">(.*?)<\/div>/.exec(html)?.[1] ?? "";
    expect(sticky).toContain('first exit 1: <a href="#input-5">::add-mask::&lt;script&gt;');
  });
});
