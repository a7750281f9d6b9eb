/**
 * The cross-binding vectors (contract §3.1): valid-binding-* are one Task as each A2A binding
 * carries it — the JSON-RPC and REST GetTask bodies, gRPC's binary Task (each with SendMessage's
 * answer in its binding's form as the first Task) and gRPC's SendStreamingMessage stream. Verified
 * as shipped, they give one evidenceId and the same state for every property.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { PROPERTY_NAMES, isFailedInput } from "../../src/report/model.js";
import { REPO_ROOT } from "../helpers/external.js";
import { vectorExtra, vectorInput, vectorInputFile } from "../helpers/vector-input.js";

const VECTORS = join(REPO_ROOT, "vectors");
const BINDING = readdirSync(VECTORS)
  .filter((n) => n.startsWith("valid-binding-"))
  .sort();

function seen(name: string) {
  const dir = join(VECTORS, name);
  const report = verify({
    inputs: [{ source: name, data: vectorInput(dir) }],
    ...vectorExtra(dir),
    trust: readFileSync(join(dir, "trust.json")),
  });
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`${name}: ${JSON.stringify(input)}`);
  const states = Object.fromEntries(PROPERTY_NAMES.map((p) => [p, input.properties[p].state]));
  return { file: vectorInputFile(dir), shape: input.shape, evidenceId: input.evidenceId, states, exit: report.policy.exitCode };
}

describe("one Task on every binding: the valid-binding-* vectors", () => {
  it("ships the four forms: JSON-RPC, REST, gRPC Task, gRPC stream", () => {
    expect(BINDING.map((n) => [n, vectorInputFile(join(VECTORS, n))])).toEqual([
      ["valid-binding-grpc-stream", "input.grpc"],
      ["valid-binding-grpc-task", "input.binpb"],
      ["valid-binding-jsonrpc", "input.json"],
      ["valid-binding-rest", "input.json"],
    ]);
  });

  it("gives one evidenceId and the same property states (negotiation observed on each), exit 0", () => {
    const all = BINDING.map(seen);
    expect(all.map((s) => s.shape)).toEqual(["stream", "task", "jsonrpc-response", "task"]);
    expect(all[0]?.evidenceId).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(all.map((s) => s.evidenceId)).size).toBe(1);
    for (const s of all) expect(s.states).toEqual(all[0]?.states);
    expect(all[0]?.states.negotiation).toBe("PASS");
    expect(all.map((s) => s.exit)).toEqual([0, 0, 0, 0]);
  });
});
