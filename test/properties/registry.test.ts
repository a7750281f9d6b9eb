/**
 * The property registry is the one list of properties: the report schema names exactly its
 * properties, in its order, and every property's check ids are documented in docs/properties.md.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROPERTIES, PROPERTY_NAMES } from "../../src/properties/index.js";
import { REPO_ROOT } from "../helpers/external.js";

const schema = JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "report.schema.json"), "utf8"));
const docs = readFileSync(join(REPO_ROOT, "docs", "properties.md"), "utf8");

function verifiedInputSchema(): {
  properties: { properties: { required: string[]; properties: Record<string, unknown> } };
} {
  const variants = schema.$defs.input.oneOf as { required: string[] }[];
  return variants.find((v) => v.required.includes("properties")) as never;
}

/** The text of docs/properties.md from the heading that names the property to the next heading of that level. */
function docSection(name: string): string {
  const lines = docs.split("\n");
  const start = lines.findIndex((l) => l === `## ${name}`);
  if (start < 0) return "";
  const level = (lines[start]?.match(/^#+/) ?? [""])[0].length;
  const end = lines.findIndex((l, i) => i > start && new RegExp(`^#{1,${level}} `).test(l));
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

describe("property registry", () => {
  it("the report schema requires exactly the registry's properties, in its order", () => {
    const props = verifiedInputSchema().properties.properties;
    expect(props.required).toEqual([...PROPERTY_NAMES]);
    expect(Object.keys(props.properties)).toEqual([...PROPERTY_NAMES]);
  });

  it("check ids are unique within a property, and the profile guard is one of them", () => {
    for (const p of PROPERTIES) {
      expect(new Set(p.checks).size, p.name).toBe(p.checks.length);
      if (p.needsProfile !== false) expect(p.checks, p.name).toContain(p.needsProfile);
    }
  });

  for (const p of PROPERTIES) {
    it(`docs/properties.md lists exactly the check ids of ${p.name}`, () => {
      const section = docSection(p.name);
      expect(section, `a section for ${p.name}`).not.toBe("");
      // The check table: a row per check (or per group of checks), ids backticked in the first column.
      const firstColumns = [...section.matchAll(/^\| (`[^|]*)\|/gm)].map((m) => m[1] as string);
      const documented = firstColumns.flatMap((c) => [...c.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string));
      expect(new Set(documented)).toEqual(new Set(p.checks));
    });
  }
});
