/**
 * The output channel is hostile too: text from the input (artifact names, details, error messages,
 * file names) must never reach a terminal as control characters or bidirectional overrides.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { renderJson } from "../../src/report/json.js";
import { renderText } from "../../src/report/text.js";
import { makeStyle } from "../../src/report/style.js";
import { REPO_ROOT } from "../helpers/external.js";
import { FORMAT_NAMES, render } from "../../src/report/index.js";
import { printable, printableField } from "../../src/util/printable.js";
import type { VerifiedInput } from "../../src/report/model.js";
import { hostileReport as everyFieldHostile } from "./reports.js";

const HOSTILE = "\u001b[2J\u001b[32m✔ all PASS\u001b[0m\u202eevil\u2028\u0085";
const MINIMAL = JSON.parse(readFileSync(join(REPO_ROOT, "vectors", "valid-minimal", "input.json"), "utf8"));

function hostileReport() {
  const input = structuredClone(MINIMAL);
  input.result.artifacts[0].name = HOSTILE;
  input.result.id = HOSTILE;
  return verify({
    inputs: [{ source: `file${HOSTILE}.json`, data: JSON.stringify(input) }],
    trust: readFileSync(join(REPO_ROOT, "vectors", "valid-minimal", "trust.json")),
  });
}

describe("the report never carries the input's control characters", () => {
  it("text: escapes, bidi overrides and separators are written as \\uXXXX", () => {
    const text = renderText(hostileReport(), { verbose: true, style: makeStyle(false) });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain("\\u001b[2J");
    expect(text).toContain("\\u202eevil");
  });

  it("json: the same characters escaped, and the document parses to the same strings", () => {
    const json = renderJson(hostileReport());
    expect(json).not.toMatch(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(json).inputs[0].source).toBe(`file${HOSTILE}.json`);
  });
});

describe("the bidirectional marks are made visible in text and JSON, as in the markup formats", () => {
  // ALM, LRM and RLM reorder the neutral characters around them (Trojan Source lists them with
  // the overrides); junit, html and github already write them as \uXXXX.
  const MARKS = "\u061c\u200e\u200f";
  const report = () =>
    verify({
      inputs: [
        { source: `a${MARKS}b.json`, data: readFileSync(join(REPO_ROOT, "vectors", "valid-minimal", "input.json")) },
      ],
      trust: readFileSync(join(REPO_ROOT, "vectors", "valid-minimal", "trust.json")),
    });

  it("text", () => {
    const text = renderText(report(), { verbose: true, style: makeStyle(false) });
    expect(text).not.toMatch(/[\u061c\u200e\u200f]/);
    expect(text).toContain("a\\u061c\\u200e\\u200fb.json");
  });

  it("json, parsing back to the same string", () => {
    const json = renderJson(report());
    expect(json).not.toMatch(/[\u061c\u200e\u200f]/);
    expect(JSON.parse(json).inputs[0].source).toBe(`a${MARKS}b.json`);
  });
});

describe("input text cannot break or pad itself into a line of its own (every format)", () => {
  const FORGED = "x\n  ✔ contentBinding            PASS  ok\t\tend";
  const report = () => {
    const base = everyFieldHostile();
    const input = base.inputs[0] as VerifiedInput;
    const cb = { ...input.properties.contentBinding, detail: FORGED };
    return { ...base, inputs: [{ ...input, properties: { ...input.properties, contentBinding: cb } }] };
  };

  it("printableField: line breaks and tabs as \\uXXXX, every space after the second of a run as \\u0020", () => {
    expect(printable("a   b")).toBe("a   b");
    expect(printableField(FORGED)).toBe(
      "x\\u000a  ✔ contentBinding  \\u0020\\u0020\\u0020\\u0020\\u0020\\u0020\\u0020\\u0020\\u0020\\u0020PASS  ok\\u0009\\u0009end",
    );
    // Any Unicode space separator counts: no-break and ideographic spaces line up text too.
    expect(printableField("a\u00a0\u3000 \u2003b")).toBe("a\u00a0\u3000\\u0020\\u2003b");
  });

  it.each(FORMAT_NAMES)("%s: no line of the report starts with the forged verdict", (format) => {
    const out = render(format, report(), { verbose: true, style: makeStyle(false) });
    const lines = out.split(/\r\n|\n|\r|%0A|&#10;|<br>/);
    expect(lines.some((l) => /^\s*✔ contentBinding/.test(l))).toBe(false);
    // JSON keeps every string exactly: it is data, each string quoted on the line it is on.
    if (format !== "json" && format !== "ndjson") expect(out).not.toMatch(/ {3}PASS {2}ok/);
    else expect(out).toContain(JSON.stringify(FORGED));
  });
});
