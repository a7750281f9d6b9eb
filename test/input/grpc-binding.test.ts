/**
 * One Task, three bindings (contract §3.1): the Tasks the producer makes, carried over JSON-RPC,
 * REST and gRPC, give one evidenceId and the same property states. The gRPC forms are encoded by
 * an independent encoder: the `@a2a-js/sdk` generated types (`fromJSON`, then the gRPC service's
 * serializers, which write with `@bufbuild/protobuf`).
 */
import { describe, expect, it } from "vitest";
import { SendMessageResponse } from "@a2a-js/sdk";
import { A2AService } from "@a2a-js/sdk/server/grpc";
import { buildExchange, buildPausedExchange } from "../../producer/exchange.js";
import { streamEvents, renderSse } from "../../producer/stream.js";
import { VECTORS } from "../../producer/vectors.js";
import { grpcStreamBytes, grpcTaskBytes } from "../../producer/vectors-grpc.js";
import type { ExchangeOptions } from "../../producer/options.js";
import { toPlain, type JsonObject } from "../../src/json/value.js";
import { verify, type InputData } from "../../src/verify.js";
import { isFailedInput, type Report } from "../../src/report/model.js";

const text = (v: JsonObject) => JSON.stringify(toPlain(v));

const taskBytes = grpcTaskBytes;

function sendMessageResponseBytes(response: JsonObject): Uint8Array {
  return A2AService.sendMessage.responseSerialize(SendMessageResponse.fromJSON(toPlain(response)));
}

function options(name: string): ExchangeOptions {
  const def = VECTORS.find((v) => v.name === name);
  if (!def) throw new Error(`no vector ${name}`);
  return def.options;
}

interface Seen {
  readonly evidenceId: string | null;
  readonly exitCode: number;
  readonly states: Record<string, string> | string;
}

function seen(report: Report): Seen {
  const input = report.inputs[0];
  if (!input) throw new Error(`no input: ${JSON.stringify(report.error)}`);
  if (isFailedInput(input)) return { evidenceId: null, exitCode: input.exitCode, states: input.error.code };
  const states = Object.fromEntries(Object.entries(input.properties).map(([k, p]) => [k, p.state]));
  return { evidenceId: input.evidenceId, exitCode: input.exitCode, states };
}

function run(data: InputData, trust: JsonObject, extra: { firstTask?: InputData; interim?: InputData[] } = {}): Seen {
  return seen(verify({ inputs: [{ source: "input", data }], trust, ...extra }));
}

const TERMINAL = [
  "valid-minimal",
  "valid-terminal-failed",
  "valid-rich",
  "valid-data-part",
  "valid-lifecycle-input-required",
  "valid-lifecycle-multi-turn-interims",
];

describe("one Task over JSON-RPC, REST and gRPC gives one report", () => {
  it.each(TERMINAL)("%s: GetTask and SendMessage answers", (name) => {
    const x = buildExchange({ ...options(name), envelope: "jsonrpc" });
    const interim = x.interimBundles.map(text);
    const first = { firstTask: text(x.firstTask), interim };
    const jsonRpc = run(text(x.getTaskResponse), x.trust, first);
    expect(jsonRpc.exitCode).toBe(0);
    expect(typeof jsonRpc.evidenceId).toBe("string");
    expect(run(text(x.finalTask), x.trust, first)).toEqual(jsonRpc);
    const grpcFirst = { firstTask: sendMessageResponseBytes({ task: x.firstTask } as JsonObject), interim };
    expect(run(taskBytes(x.finalTask), x.trust, grpcFirst)).toEqual(jsonRpc);
    expect(run(sendMessageResponseBytes({ task: x.finalTask } as JsonObject), x.trust, grpcFirst)).toEqual(jsonRpc);
  });

  it("a streamed exchange: the gRPC stream folds as the SSE stream does", () => {
    const x = buildExchange(options("valid-stream-sse-rest"));
    const events = streamEvents(x);
    const sse = run(renderSse(events, { binding: "rest", jsonRpcId: 1 }), x.trust);
    expect(sse.exitCode).toBe(0);
    expect(sse.states).toMatchObject({ negotiation: "PASS", taskBinding: "PASS" });
    expect(run(grpcStreamBytes(events), x.trust)).toEqual(sse);
    expect(run(taskBytes(x.finalTask), x.trust, { firstTask: grpcStreamBytes(events) })).toEqual(sse);
  });

  it("a paused Task: PENDING (exit 3) over every binding", () => {
    const p = buildPausedExchange(options("pending-auth-required-with-interim"));
    const task = (p.input.result ?? p.input) as JsonObject;
    const jsonRpc = run(text(p.input), p.trust);
    expect(jsonRpc).toEqual({ evidenceId: null, exitCode: 3, states: "INPUT_EVIDENCE_PENDING" });
    expect(run(taskBytes(task), p.trust)).toEqual(jsonRpc);
  });
});
