import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as lib from "../../src/index.js";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const input = join(REPO_ROOT, "vectors", "valid-rich", "input.json");
const trust = join(REPO_ROOT, "vectors", "valid-rich", "trust.json");

describe("library API", () => {
  it("verify() returns exactly the report the CLI prints", async () => {
    const report = lib.verify({ inputs: [{ source: input, data: readFileSync(input) }], trust: readFileSync(trust) });
    const cli = await runCli(["verify", "--format", "json", "--trust", trust, input]);
    expect(lib.render("json", report, { verbose: false, style: lib.makeStyle(false) })).toBe(cli.stdout);
    expect(report.policy.exitCode).toBe(0);
  });

  it("accepts parsed values and a loaded trust configuration, and never throws on bad input", () => {
    const parsed = lib.parseStrictJson(readFileSync(input));
    const trustValue = lib.parseStrictJson(readFileSync(trust));
    if (!parsed.ok || !trustValue.ok) throw new Error("vector does not parse");
    const loaded = lib.loadTrustConfig(trustValue.value);
    if (!loaded.ok) throw new Error(loaded.detail);
    const report = lib.verify({ inputs: [{ source: "parsed", data: parsed.value }], trust: loaded.value });
    expect(report.inputs[0]?.exitCode).toBe(0);
    const bad = lib.verify({ inputs: [{ source: "bad", data: "{" }], trust: "{ not json" });
    expect(bad.policy.exitCode).toBe(2);
    expect(bad.error?.code).toBe("TRUST_NOT_JSON");
    const badInput = lib.verify({ inputs: [{ source: "bad", data: new Uint8Array([0xff]) }] });
    expect(badInput.inputs[0]).toMatchObject({ exitCode: 2, error: { code: "JSON_INVALID_UTF8" } });
  });

  it("reports the tool version from package.json", () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
    expect(lib.TOOL_VERSION).toBe(pkg.version);
  });
});
