/**
 * The fast subset the README offers (`npm run test:fast`): the script exists, and every test it
 * leaves out is named by a path that still exists, so a moved slow test cannot silently rejoin it.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";
import { SLOW } from "../../vitest.config.js";

describe("npm run test:fast", () => {
  it("is the README's fast subset: vitest in its fast mode", () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts["test:fast"]).toBe("vitest run --mode fast");
    expect(readFileSync(join(REPO_ROOT, "README.md"), "utf8")).toContain("`npm run test:fast`");
  });

  it("leaves out only paths that exist: folders of tests, or test files", () => {
    expect(SLOW.length).toBeGreaterThan(0);
    for (const entry of SLOW) {
      if (entry.endsWith("/**")) {
        const dir = join(REPO_ROOT, entry.slice(0, -3));
        expect(existsSync(dir) && statSync(dir).isDirectory(), entry).toBe(true);
      } else {
        expect(entry, entry).toMatch(/\.test\.ts$/);
        expect(existsSync(join(REPO_ROOT, entry)), entry).toBe(true);
      }
    }
  });
});
