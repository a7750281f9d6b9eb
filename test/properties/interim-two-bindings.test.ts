/**
 * One interim record supplied twice, each copy from another binding (contract §3, §3.1, §9.24;
 * a2a-wire.md §6.12). A server that delivers the record in a `data` part passes it through a
 * google.protobuf.Value, where every number is a double: a Python JSON-RPC server prints the
 * transcript's `sequence` 2 as `2.0`, a gRPC client decodes it as `2`. Both are the one record the
 * producer sealed, and `interim.cited` says so; a copy whose numbers are other values, or two copies
 * whose bytes were carried exactly and still differ, are two records under one evidenceId.
 */
import { describe, expect, it } from "vitest";
import { buildExchange, buildPausedExchange } from "../../producer/exchange.js";
import { copyObject, jsonText } from "../../producer/json-text.js";
import type { ExchangeOptions } from "../../producer/options.js";
import { grpcTaskBytes } from "../../producer/vectors-grpc.js";
import { JsonNumber, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { isFailedInput, type VerifiedInput } from "../../src/report/model.js";
import { verify, type InputData } from "../../src/verify.js";
import { PAUSED_FOR_LOGIN } from "../helpers/paused-exchange.js";
import { at, widened } from "./harness.js";

/** The Task that paused for a bank login, its records delivered in `data` parts. */
const OPTIONS: ExchangeOptions = { ...PAUSED_FOR_LOGIN, carrier: "data" };
const PAUSED_TRANSCRIPT = (PAUSED_FOR_LOGIN.transcript ?? []).slice(0, 3);

/** The terminal exchange (a GetTask response, or a capture) and the paused one. */
function exchanges(options: ExchangeOptions = {}, envelope: "jsonrpc" | "capture" = "jsonrpc") {
  const o = { ...OPTIONS, ...options };
  const done = buildExchange({ ...o, envelope });
  const paused = buildPausedExchange({ ...o, envelope: "paused", transcript: PAUSED_TRANSCRIPT });
  return { done, paused };
}

const { done, paused } = exchanges();

/** The paused Task's evidence Artifact's data part. */
function dataPart(task: JsonObject): JsonObject {
  const artifacts = task.artifacts as JsonValue[];
  return at(artifacts[artifacts.length - 1] as JsonValue, "parts", 0);
}

/** The paused Task as a Python JSON-RPC server writes it: the record's integers printed as doubles (2 → 2.0). */
function fromPython(task: JsonObject, change?: (bundle: JsonObject) => void): string {
  const t = copyObject(task);
  const part = dataPart(t);
  part.data = widened(part.data as JsonObject);
  change?.(part.data);
  return jsonText(t);
}

/** The paused Task as a gRPC client holds it: the record's numbers decode as `2`. */
const overGrpc = (task: JsonObject): Uint8Array => grpcTaskBytes(task);

function run(interim: readonly InputData[], input: InputData = jsonText(done.getTaskResponse)): VerifiedInput {
  const report = verify({ inputs: [{ source: "done.json", data: input }], interim, trust: done.trust });
  const verified = report.inputs[0];
  if (!verified || isFailedInput(verified))
    throw new Error(`input failed: ${JSON.stringify(verified ?? report.error)}`);
  return verified;
}

const failing = (r: VerifiedInput) =>
  Object.entries(r.properties).flatMap(([name, p]) =>
    p.checks.filter((c) => c.state === "FAIL").map((c) => `${name} ${c.id} ${c.detail}`),
  );

const evidenceId = String(at(paused.pausedTask, "artifacts", 1, "parts", 0, "data").evidenceId);

/** The interim.cited check about the second copy supplied (`--interim[1]`). */
function secondCopy(r: VerifiedInput) {
  const subject = new RegExp(`^interim record ${evidenceId} at --interim\\[1\\]`);
  const found = r.properties.taskBinding.checks.filter(
    (c) => c.id === "interim.cited" && subject.test(c.subject ?? ""),
  );
  expect(found).toHaveLength(1);
  return found[0];
}

describe("one interim record supplied over two bindings", () => {
  it("the Python copy writes sequence 2.0, the binary copy decodes it as 2; each copy alone verifies as before", () => {
    expect(fromPython(paused.pausedTask)).toMatch(/"sequence": ?2\.0/);
    // Alone, the binary copy recomputes every digest: exit 0. The Python copy's digests match only
    // with its widened numbers narrowed back (INCONCLUSIVE, contract §9.17): exit 3, nothing FAILs.
    const binary = run([overGrpc(paused.pausedTask)]);
    expect([failing(binary), binary.exitCode]).toEqual([[], 0]);
    const python1 = run([fromPython(paused.pausedTask)]);
    expect([failing(python1), python1.exitCode]).toEqual([[], 3]);
    expect(python1.properties.contentBinding.checks.find((c) => c.id === "interim.content")).toMatchObject({
      state: "INCONCLUSIVE",
      detail: expect.stringMatching(/widened number\(s\) narrowed back to integers/),
    });
  });

  it.each([
    ["binary, then JSON-RPC from a Python server", () => [overGrpc(paused.pausedTask), fromPython(paused.pausedTask)]],
    ["JSON-RPC from a Python server, then binary", () => [fromPython(paused.pausedTask), overGrpc(paused.pausedTask)]],
  ] as const)("%s: one record, interim.cited PASS, nothing FAILs, the Python copy's exit 3", (_, interim) => {
    const r = run(interim());
    expect(failing(r)).toEqual([]);
    expect(secondCopy(r)).toMatchObject({
      state: "PASS",
      detail: expect.stringMatching(
        /^two forms of one interim record .*: one bundle, its numbers equal by value \(a structured carrier passes them through doubles\); each form is verified$/,
      ),
    });
    expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["PASS", 3]);
  });

  it("the record's own checkpoint from a Python server, its re-issued form from the capture: one record, PASS", () => {
    // Sealed under its own checkpoint at the pause (the paused Task carries that form) and re-issued
    // with the terminal record's checkpoint (the capture keeps that form): profile §3.1.
    const both = exchanges({ interim: [{ at: 2, checkpoint: "both" }] }, "capture");
    const [own, reissued] = both.done.input.interimBundles as JsonObject[];
    expect(own?.evidenceId).toBe(evidenceId);
    expect(jsonText(at(both.paused.pausedTask, "artifacts", 1, "parts", 0, "data"))).toBe(jsonText(own as JsonObject));
    const input = jsonText({ ...both.done.input, interimBundles: [reissued as JsonObject] } as JsonObject);
    const r = run([fromPython(both.paused.pausedTask)], input);
    expect(failing(r)).toEqual([]);
    const found = r.properties.taskBinding.checks.filter(
      (c) => c.id === "interim.cited" && (c.subject ?? "").includes("--interim[0]"),
    );
    expect(found).toMatchObject([
      {
        state: "PASS",
        detail: expect.stringMatching(
          /^two forms of one interim record .*: the same payload and capsule, their numbers equal by value \(a structured carrier passes them through doubles\), under other log material \(sealed under its own checkpoint and re-issued under a later one\); each form is verified$/,
        ),
      },
    ]);
    expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["PASS", 3]);
  });

  it("a copy whose number is another value, not another spelling, FAILs interim.cited (exit 1)", () => {
    const python = fromPython(paused.pausedTask, (bundle) => {
      for (const payload of [at(bundle, "taskEvidencePayload"), at(bundle, "manifest", "taskEvidencePayload")])
        at(payload, "transcript", 2).sequence = new JsonNumber("3.0");
    });
    const r = run([overGrpc(paused.pausedTask), python]);
    expect(secondCopy(r)).toMatchObject({
      state: "FAIL",
      detail: expect.stringMatching(
        /^two different interim bundles carry evidenceId .*: their taskEvidencePayload differ \(numbers compared by value, as a structured carrier passes them through doubles\), so they are not two copies of one record$/,
      ),
    });
    expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["FAIL", 1]);
  });

  it("the same respelling with no structured carrier on either side FAILs: bare bundles' numbers are committed as written", () => {
    const bundle = at(paused.pausedTask, "artifacts", 1, "parts", 0, "data");
    const r = run([jsonText(bundle), jsonText(widened(bundle))]);
    expect(secondCopy(r)).toMatchObject({
      state: "FAIL",
      detail: expect.stringMatching(
        /^two different interim bundles carry evidenceId .*: their taskEvidencePayload differ, so they are not two copies of one record$/,
      ),
    });
    expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["FAIL", 1]);
  });
});

/**
 * A Task's author puts a copy of a record in a `data` part to have it compared by value; the
 * comparison then says one record or two, and each copy is still verified on its own, so what the
 * comparison lets pass as one record is never more than what that copy's own checks allow.
 */
describe("a copy in a data part that is another record under the same evidenceId", () => {
  /** The Python copy with `change` made to both of its payloads (the top-level one and the manifest's). */
  const changed = (change: (payload: JsonObject) => void) =>
    fromPython(paused.pausedTask, (bundle) => {
      for (const payload of [at(bundle, "taskEvidencePayload"), at(bundle, "manifest", "taskEvidencePayload")])
        change(payload);
    });
  const content = (r: VerifiedInput) =>
    r.properties.contentBinding.checks.filter((c) => c.id === "interim.content").map((c) => c.state);

  it.each([
    // Compared by value the copies are one (-0 equals 0), and the copy is judged on its own: its
    // payload does not derive the evidenceId under any narrowing.
    ["a sequence written -0, equal to 0 as a double but not a spelling a carrier prints for it", 0, "-0", "FAIL", 1],
    ["an integer written as 2e0, a spelling of the double 2", 2, "2e0", "INCONCLUSIVE", 3],
  ] as const)("%s: one record by value, that copy's own payload %s, exit %s", (_, entry, lexeme, state, exit) => {
    const r = run([
      overGrpc(paused.pausedTask),
      changed((p) => (at(p, "transcript", entry).sequence = new JsonNumber(lexeme))),
    ]);
    expect(secondCopy(r)?.state).toBe("PASS");
    expect(content(r)).toEqual(["PASS", state]);
    expect([r.properties.contentBinding.state, r.exitCode]).toEqual([state, exit]);
  });

  it("a number no double holds (2.0000000000000001, as 9007199254740993 is): the copy cannot be read, exit 2 naming it", () => {
    const data = changed((p) => (at(p, "transcript", 2).sequence = new JsonNumber("2.0000000000000001")));
    const report = verify({
      inputs: [{ source: "done.json", data: jsonText(done.getTaskResponse) }],
      interim: [overGrpc(paused.pausedTask), data],
      trust: done.trust,
    });
    expect([report.error?.code, report.error?.path, report.policy.exitCode]).toEqual([
      "JSON_LOSSY_NUMBER",
      "artifacts[1].parts[0].data.manifest.taskEvidencePayload.transcript[2].sequence",
      2,
    ]);
  });

  it.each<[string, (p: JsonObject) => void]>([
    ["a sequence written as a string", (p) => (at(p, "transcript", 2).sequence = "2")],
    ["a number that is another double (2.5)", (p) => (at(p, "transcript", 2).sequence = new JsonNumber("2.5"))],
    ["a null member left out", (p) => delete p.tenantId],
    ["a member added as null", (p) => (p.extra = null)],
  ])("%s: two records, interim.cited FAIL (exit 1)", (_, change) => {
    const r = run([overGrpc(paused.pausedTask), changed(change)]);
    expect(secondCopy(r)).toMatchObject({
      state: "FAIL",
      detail: expect.stringMatching(/: their taskEvidencePayload differ \(numbers compared by value/),
    });
    expect([r.properties.taskBinding.state, r.exitCode]).toEqual(["FAIL", 1]);
  });

  it("the data-part copy given first (the one citations are checked against) changes nothing: the same FAIL, exit 1", () => {
    const r = run([changed((p) => (at(p, "transcript", 2).sequence = "2")), overGrpc(paused.pausedTask)]);
    expect(secondCopy(r)?.state).toBe("FAIL");
    expect(r.exitCode).toBe(1);
  });
});
