/**
 * A folder given to `verify` walks the gRPC forms too (contract §3.1, §9.35): `*.binpb` (a binary
 * Task) and `*.grpc` (a gRPC server stream) are inputs like `*.json`, under the same skip rules —
 * the run's own configuration files skipped and said once, other files that are not inputs an
 * error unless --skip-unknown lists them.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandInputs } from "../../src/cli/inputs.js";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const VECTORS = join(REPO_ROOT, "vectors");

interface Input {
  source: string;
  exitCode: number;
  evidenceId?: string | null;
  error?: { code: string };
}

/** A temp folder: task/ and stream/ each hold a shipped gRPC vector's input, trust.json and expected.json. */
function folder(): { root: string; task: string; stream: string } {
  const root = mkdtempSync(join(tmpdir(), "a2a-evidence-grpc-folder-"));
  const copy = (vector: string, sub: string, input: string) => {
    const dir = join(root, sub);
    mkdirSync(dir);
    for (const f of [input, "trust.json", "expected.json"]) copyFileSync(join(VECTORS, vector, f), join(dir, f));
    return dir;
  };
  const task = copy("valid-grpc-task", "task", "input.binpb");
  const stream = copy("valid-grpc-stream", "stream", "input.grpc");
  writeFileSync(join(root, "README.txt"), "not an input, and not walked");
  return { root, task, stream };
}

async function verifyJson(args: string[]): Promise<{ code: number; inputs: Input[]; stderr: string }> {
  const r = await runCli(["verify", "--format", "json", ...args]);
  return { code: r.code, inputs: JSON.parse(r.stdout).inputs as Input[], stderr: r.stderr };
}

/** The evidenceId the JSON twin of a gRPC vector gives. */
async function twinEvidenceId(vector: string, input: string): Promise<string | null | undefined> {
  const r = await verifyJson(["--trust", join(VECTORS, vector, "trust.json"), join(VECTORS, vector, input)]);
  return r.inputs[0]?.evidenceId;
}

describe("a folder holding gRPC inputs", () => {
  it("walks *.binpb and *.grpc beside *.json, in byte order of the paths", async () => {
    const { root, task, stream } = folder();
    const expanded = await expandInputs([root]);
    expect(expanded.errors).toEqual([]);
    expect(expanded.paths).toEqual([
      join(stream, "expected.json"),
      join(stream, "input.grpc"),
      join(stream, "trust.json"),
      join(task, "expected.json"),
      join(task, "input.binpb"),
      join(task, "trust.json"),
    ]);
  });

  it.each([
    ["task", "input.binpb", "valid-minimal", "input.json"],
    ["stream", "input.grpc", "valid-stream-sse-rest", "input.sse"],
  ] as const)(
    "%s/: the gRPC input verifies (exit 0, its JSON twin's evidenceId); the trust file is skipped, expected.json is an error",
    async (sub, input, twin, twinInput) => {
      const dirs = folder();
      const dir = dirs[sub];
      const trust = join(dir, "trust.json");
      const r = await verifyJson(["--trust", trust, dir]);
      expect(r.inputs.map((i) => [i.source, i.exitCode, i.error?.code])).toEqual([
        [join(dir, "expected.json"), 2, "INPUT_UNKNOWN_SHAPE"],
        [join(dir, input), 0, undefined],
      ]);
      expect(r.code).toBe(2);
      const evidenceId = await twinEvidenceId(twin, twinInput);
      expect(evidenceId).toMatch(/^[0-9a-f]{64}$/);
      expect(r.inputs[1]?.evidenceId).toBe(evidenceId);
      expect(r.stderr).toContain(
        `skipped in the folders given: 1 file(s) this run reads as its configuration (${trust})`,
      );

      const skipping = await verifyJson(["--skip-unknown", "--trust", trust, dir]);
      expect(skipping.inputs.map((i) => [i.source, i.exitCode])).toEqual([[join(dir, input), 0]]);
      expect(skipping.code).toBe(0);
      expect(skipping.stderr).toContain(`--skip-unknown: ${join(dir, "expected.json")}`);
    },
  );

  it("a *.binpb that is a protobuf message of no A2A shape is skipped under --skip-unknown; a broken one is never", async () => {
    const { task } = folder();
    const trust = join(task, "trust.json");
    // Field 1 (a string) only: it decodes, but is neither a Task (no status) nor a SendMessageResponse.
    writeFileSync(join(task, "other.binpb"), Uint8Array.from([0x0a, 0x02, 0x68, 0x69]));
    const skipping = await verifyJson(["--skip-unknown", "--trust", trust, task]);
    expect(skipping.inputs.map((i) => [i.source, i.exitCode])).toEqual([[join(task, "input.binpb"), 0]]);
    expect(skipping.stderr).toContain(`${join(task, "expected.json")}, ${join(task, "other.binpb")}`);
    expect(skipping.code).toBe(0);
    // A gRPC stream whose frame is compressed is an A2A input that is broken: an error, exit 2.
    writeFileSync(join(task, "broken.grpc"), Uint8Array.from([1, 0, 0, 0, 0]));
    const broken = await verifyJson(["--skip-unknown", "--trust", trust, task]);
    expect(broken.inputs.map((i) => [i.source, i.exitCode, i.error?.code])).toEqual([
      [join(task, "broken.grpc"), 2, "INPUT_GRPC_COMPRESSED"],
      [join(task, "input.binpb"), 0, undefined],
    ]);
    expect(broken.code).toBe(2);
  });
});
