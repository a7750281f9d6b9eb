/**
 * verify() keeps nothing of a call once it returns: what one call made (its input's text, the
 * parsed values, the report) is garbage for the young generation's next collection, not promoted to
 * the old generation to wait for a full one. A long-lived caller (a server verifying Task after
 * Task) paid for that promotion in full collections: the run's passes were once generator methods
 * of an object made per call, and V8 then kept each call's report, and through the strings sliced
 * from it the input's whole text, alive through every young-generation collection.
 *
 * Measured as memory, never time: the old generation's growth over 100 calls, between a full
 * collection before them and two young-generation collections after. A full collection V8 runs in
 * between can only lower the growth, so the test cannot fail for it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, it } from "vitest";
import { verify } from "../../src/verify.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as (options?: { type: "major" | "minor" }) => void;
const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === "old_space")?.space_used_size ?? 0;

it("100 calls of verify() on an 18 kB exchange leave under 3 MB in the old generation (about 7 MB when each call's input was promoted)", () => {
  const dir = join(import.meta.dirname, "..", "..", "vectors", "valid-rich");
  const trust = readFileSync(join(dir, "trust.json"));
  const input = { source: "input.json", data: new Uint8Array(readFileSync(join(dir, "input.json"))) };
  // Warm-up: code, memos and the trust keys' import settle first.
  for (let i = 0; i < 20; i++) expect(verify({ inputs: [input], trust }).policy.exitCode).toBe(0);
  gc();
  const before = oldSpace();
  for (let i = 0; i < 100; i++) verify({ inputs: [input], trust });
  gc({ type: "minor" });
  gc({ type: "minor" });
  expect((oldSpace() - before) / 1024 / 1024).toBeLessThan(3);
});
