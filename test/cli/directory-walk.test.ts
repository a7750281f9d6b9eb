/**
 * A directory argument is walked once per directory: a symlink back to a directory already walked
 * (a loop, or two links to one place) must not list its files again, nor make the walk grow
 * exponentially with the number of links (bounded work on a directory the caller did not build).
 */
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandInputs } from "../../src/cli/inputs.js";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const MINIMAL = join(REPO_ROOT, "vectors", "valid-minimal");

describe("directory inputs and symlinks", () => {
  it("links back to the walked directory list each file once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-walk-"));
    copyFileSync(join(MINIMAL, "input.json"), join(dir, "a.json"));
    mkdirSync(join(dir, "sub"));
    copyFileSync(join(MINIMAL, "input.json"), join(dir, "sub", "b.json"));
    // Three links that each lead back into the tree: followed naively, 3^40 paths until ELOOP.
    symlinkSync(dir, join(dir, "loop1"));
    symlinkSync(dir, join(dir, "loop2"));
    symlinkSync(join(dir, "sub"), join(dir, "sub", "again"));
    const expanded = await expandInputs([dir]);
    expect(expanded.errors).toEqual([]);
    expect(expanded.paths).toEqual([join(dir, "a.json"), join(dir, "sub", "b.json")]);

    const r = await runCli(["verify", "--format", "json", "--trust", join(MINIMAL, "trust.json"), dir]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).inputs.map((i: { source: string }) => i.source)).toEqual(expanded.paths);
  });

  it("a linked directory outside the tree is walked, once", async () => {
    const outside = mkdtempSync(join(tmpdir(), "a2a-evidence-walk-outside-"));
    copyFileSync(join(MINIMAL, "input.json"), join(outside, "c.json"));
    const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-walk-"));
    symlinkSync(outside, join(dir, "one"));
    symlinkSync(outside, join(dir, "two"));
    expect((await expandInputs([dir])).paths).toEqual([join(dir, "one", "c.json")]);
  });
});
