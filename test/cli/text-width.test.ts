/**
 * Text that fits (contract §9.37): the text report fits the terminal's width on a TTY and 100
 * columns otherwise; hashes and keys are shortened to their first 12 hex digits with an ellipsis
 * (-v and every machine format keep them whole); long details wrap under their column.
 */
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

// The report names its input by the path it was given, one word no width can break: the vector is
// given relative to the working folder, so the widths asserted do not depend on where the checkout is.
const vector = (name: string, file: string) => relative(process.cwd(), join(REPO_ROOT, "vectors", name, file));
const RICH = vector("valid-rich", "input.json");
const TRUST = vector("valid-rich", "trust.json");
const ANSI = /\u001b\[[0-9;]*m/g;
const columns = (text: string) => Math.max(...text.split("\n").map((l) => [...l.replace(ANSI, "")].length));
/** Lines that are not one unbreakable word (a path or a property name column). */
const PROPERTY_COLUMN = 44;

describe("the text report fits its width", () => {
  it("piped: 100 columns, hashes shortened to 12 hex digits and an ellipsis", async () => {
    const r = await runCli(["verify", "--trust", TRUST, RICH]);
    expect(columns(r.stdout)).toBeLessThanOrEqual(100);
    expect(r.stdout).not.toMatch(/[0-9a-f]{13,}/);
    expect(r.stdout).toMatch(/\b[0-9a-f]{12}…/);
  });

  it("on a terminal: the terminal's width, long details wrapping under their column", async () => {
    const r = await runCli(["verify", "--trust", TRUST, RICH], { tty: true, columns: 72 });
    expect(columns(r.stdout)).toBeLessThanOrEqual(72);
    const lines = r.stdout.replace(ANSI, "").split("\n");
    const k = lines.findIndex((l) => l.includes(" taskBinding "));
    // The detail goes on under its column, not under the property's name.
    expect(lines[k + 1]).toMatch(new RegExp(`^ {${PROPERTY_COLUMN}}\\S`));
  });

  it("-v and the machine formats keep hashes whole", async () => {
    const v = await runCli(["verify", "-v", "--trust", TRUST, RICH]);
    expect(v.stdout).toMatch(/[0-9a-f]{64}/);
    const json = await runCli(["verify", "--format", "json", "--trust", TRUST, RICH]);
    const detail = JSON.parse(json.stdout).inputs[0].properties.producerSignature.detail as string;
    expect(detail).toMatch(/[0-9a-f]{64}/);
    expect(json.stdout).not.toContain("…");
  });

  it("a path too long to leave the bundle's location a column beside it: the location goes under it", async () => {
    const long = join(mkdtempSync(join(tmpdir(), "text-width-")), `${"a-task-with-a-long-name-".repeat(3)}input.json`);
    copyFileSync(join(REPO_ROOT, "vectors", "valid-rich", "input.json"), long);
    const r = await runCli(["verify", "--trust", TRUST, long], { tty: true, columns: 72 });
    const lines = r.stdout.replace(ANSI, "").split("\n");
    const k = lines.indexOf(long);
    // The path on a line of its own, wider than the terminal; then the location, indented.
    expect(long.length).toBeGreaterThan(72);
    expect(k).toBeGreaterThanOrEqual(0);
    expect(lines[k + 1]).toMatch(/^ {4}\(.*bundle at /);
    expect(columns(lines.filter((l) => l !== long).join("\n"))).toBeLessThanOrEqual(72);
    // A path that leaves room keeps the location beside it.
    const short = await runCli(["verify", "--trust", TRUST, RICH], { tty: true, columns: 72 });
    expect(short.stdout.replace(ANSI, "")).toMatch(
      new RegExp(`^${RICH.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}  \\(`, "m"),
    );
  });
});
