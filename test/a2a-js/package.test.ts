import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

describe("the a2a-evidence/a2a-js subpath of the built package", () => {
  it("resolves through package.json exports and exports the gate", () => {
    const script =
      "const m = await import('a2a-evidence/a2a-js'); const root = await import('a2a-evidence'); console.log([typeof m.evidenceGate, typeof m.EvidencePolicyError, typeof root.verify, 'evidenceGate' in root].join(' '));";
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    // The root entry does not pull in the SDK: the gate lives only on its subpath.
    expect(r.stdout.trim()).toBe("function function function false");
  });
});
