/**
 * Two independent judges of the JUnit output: fast-xml-parser for well-formedness and the tree a CI
 * system would read, and libxml2's xmllint for strict XML 1.0 (it refuses characters XML forbids,
 * which fast-xml-parser lets through) and for validity against the JUnit schema in test/fixtures.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { REPO_ROOT } from "../helpers/external.js";

export const JUNIT_XSD = join(REPO_ROOT, "test", "fixtures", "junit-10.xsd");

export const HAS_XMLLINT = spawnSync("xmllint", ["--version"]).status === 0;
if (!HAS_XMLLINT) {
  process.stderr.write("SKIPPED: JUnit schema validation: xmllint is not installed (Debian package libxml2-utils)\n");
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  processEntities: true,
  htmlEntities: true,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => ["testsuite", "testcase", "property", "failure", "skipped", "error", "system-out"].includes(name),
});

export interface Outcome {
  readonly "@_type"?: string;
  readonly "@_message"?: string;
  readonly "#text"?: string;
}
export interface ParsedCase {
  readonly "@_name": string;
  readonly "@_classname": string;
  readonly failure?: Outcome[];
  readonly skipped?: Outcome[];
  readonly error?: Outcome[];
  readonly "system-out"?: (string | { "#text": string })[];
}
export interface ParsedSuite {
  readonly "@_name": string;
  readonly "@_tests": string;
  readonly "@_failures": string;
  readonly "@_errors": string;
  readonly "@_skipped": string;
  readonly properties?: { property: { "@_name": string; "@_value": string }[] };
  readonly testcase: ParsedCase[];
  readonly "system-out"?: (string | { "#text": string })[];
}
export interface ParsedJunit {
  readonly testsuites: { "@_tests": string; "@_failures": string; "@_errors": string; testsuite?: ParsedSuite[] };
}

/** Parses the document after checking it is well-formed; throws with the parser's reason if not. */
export function parseJunit(xml: string): ParsedJunit {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`not well-formed: ${JSON.stringify(valid)}`);
  return parser.parse(xml) as ParsedJunit;
}

export function outText(o: string | { "#text": string } | undefined): string {
  return o === undefined ? "" : typeof o === "string" ? o : o["#text"];
}

/** xmllint's verdict on each document: strict parse, then the JUnit schema. */
export function xmllintSchema(docs: readonly string[]): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-junit-"));
  const files = docs.map((d, i) => {
    const f = join(dir, `report-${i}.xml`);
    writeFileSync(f, d);
    return f;
  });
  const r = spawnSync("xmllint", ["--noout", "--nonet", "--schema", JUNIT_XSD, ...files], { encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}
