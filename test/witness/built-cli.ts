/**
 * The built CLI's verify over several inputs written to a folder (`0.json`, `1.json`, …) with one
 * trust file: what the tests of the comparison across inputs run with and without --jobs and
 * --shard, where worker threads take the sightings.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JsonValue } from "../../src/json/value.js";
import type { Report } from "../../src/report/model.js";
import { jsonText } from "../../producer/json-text.js";
import { REPO_ROOT } from "../helpers/external.js";

const BIN = join(REPO_ROOT, "bin", "a2a-evidence.cjs");

/** Whether the CLI is built (the tests that run it are skipped otherwise). */
export const BUILT = existsSync(join(REPO_ROOT, "dist", "a2a-evidence.cjs"));

/** Writes the inputs and the trust file; the returned function runs verify over all of them with `extra` options. */
export function builtVerify(inputs: readonly JsonValue[], trust: JsonValue) {
  const dir = mkdtempSync(join(tmpdir(), "a2a-evidence-inputs-"));
  inputs.forEach((input, k) => writeFileSync(join(dir, `${k}.json`), jsonText(input)));
  writeFileSync(join(dir, "trust.json"), jsonText(trust));
  const files = inputs.map((_, k) => join(dir, `${k}.json`));
  return (...extra: string[]) => {
    const r = spawnSync(
      process.execPath,
      [BIN, "verify", "--format", "json", "--trust", join(dir, "trust.json"), ...extra, ...files],
      { encoding: "utf8" },
    );
    return { status: r.status, stdout: r.stdout, report: JSON.parse(r.stdout) as Report };
  };
}
