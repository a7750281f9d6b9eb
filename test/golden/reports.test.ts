/**
 * Report bytes of every shipped vector, pinned. A refactoring must not change a byte of what a
 * user sees; a deliberate change regenerates the pinned files (`UPDATE_GOLDEN=1 npx vitest run
 * test/golden`) and the diff is reviewed with it.
 *
 * Each vector is rendered as JSON and as verbose text, with its trust file and without one.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { renderJson } from "../../src/report/json.js";
import { renderText } from "../../src/report/text.js";
import { makeStyle } from "../../src/report/style.js";
import { REPO_ROOT } from "../helpers/external.js";
import { namedVectorInput, shippedVectorNames, SHIPPED_VECTORS, vectorExtra } from "../helpers/vector-input.js";

const GOLDEN = join(REPO_ROOT, "test", "golden", "reports");
const update = process.env.UPDATE_GOLDEN === "1";
const names = shippedVectorNames();

function rendered(name: string, withTrust: boolean): string {
  const dir = join(SHIPPED_VECTORS, name);
  const report = verify({
    inputs: [namedVectorInput(name)],
    ...vectorExtra(dir),
    ...(withTrust ? { trust: readFileSync(join(dir, "trust.json")) } : {}),
  });
  return `${renderJson(report)}\n${renderText(report, { verbose: true, style: makeStyle(false) })}`;
}

describe("pinned report bytes of the shipped vectors", () => {
  if (update) mkdirSync(GOLDEN, { recursive: true });
  for (const name of names) {
    for (const withTrust of [true, false]) {
      const file = join(GOLDEN, `${name}${withTrust ? "" : ".no-trust"}.txt`);
      it(`${name}${withTrust ? "" : " (no trust file)"}`, () => {
        const got = rendered(name, withTrust);
        if (update) writeFileSync(file, got);
        expect(got).toBe(readFileSync(file, "utf8"));
      });
    }
  }
});
