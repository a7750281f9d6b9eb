/**
 * Cross-binding vectors: an honest JSON vector's exchange as a gRPC client holds it — the GetTask
 * answer as a binary protobuf Task (`input.binpb`), or the stream as StreamResponse messages in
 * gRPC length-prefixed framing (`input.grpc`). Each expects exactly what its JSON twin expects:
 * one Task gives one evidenceId and one report over every binding (contract §3.1).
 *
 * Encoded with the `@a2a-js/sdk` generated types (`fromJSON`, then its gRPC service's
 * serializers), an encoder the verifier does not use.
 */
import { StreamResponse, Task } from "@a2a-js/sdk";
import { A2AService } from "@a2a-js/sdk/server/grpc";
import { toPlain, type JsonObject } from "../src/json/value.js";
import type { Exchange } from "./exchange.js";
import { ProducerError } from "./errors.js";
import { streamEvents } from "./stream.js";
import type { VectorDefinition } from "./vectors.js";

export interface GrpcVectorDefinition extends VectorDefinition {
  /** `task`: the final Task as GetTask answers it; `stream`: the exchange's stream. */
  readonly grpc: "task" | "stream";
}

export function isGrpcVector(def: VectorDefinition): def is GrpcVectorDefinition {
  return (def as Partial<GrpcVectorDefinition>).grpc !== undefined;
}

/** A Task as gRPC's GetTask answers it: the binary protobuf message. */
export function grpcTaskBytes(task: JsonObject): Uint8Array {
  return Uint8Array.from(A2AService.getTask.responseSerialize(Task.fromJSON(toPlain(task))));
}

/** StreamResponses as a gRPC server stream: each framed as flag 0, 4-byte big-endian length, the message. */
export function grpcStreamBytes(events: readonly JsonObject[]): Uint8Array {
  const frames = events.map((e) => {
    const m = A2AService.sendStreamingMessage.responseSerialize(StreamResponse.fromJSON(toPlain(e)));
    const header = Buffer.alloc(5);
    header.writeUInt32BE(m.length, 1);
    return Buffer.concat([header, m]);
  });
  return Uint8Array.from(Buffer.concat(frames));
}

/** The input file of a gRPC vector: its name in the folder and its bytes. */
export function renderGrpcInput(def: GrpcVectorDefinition, exchange: Exchange): readonly [string, Uint8Array] {
  return def.grpc === "task"
    ? ["input.binpb", grpcTaskBytes(exchange.finalTask)]
    : ["input.grpc", grpcStreamBytes(streamEvents(exchange))];
}

const TWINS: readonly (readonly [string, string, GrpcVectorDefinition["grpc"], string])[] = [
  [
    "valid-grpc-task",
    "valid-minimal",
    "task",
    "valid-minimal over gRPC: the GetTask answer as the binary protobuf Task (input.binpb). Its evidence bundle is the same bytes as in the JSON-RPC Task: the same evidenceId and the same report.",
  ],
  [
    "valid-grpc-stream",
    "valid-stream-sse-rest",
    "stream",
    "valid-stream-sse-rest over gRPC: the same StreamResponses as binary messages in gRPC length-prefixed framing (input.grpc), folded as the SSE stream is: the same evidenceId and the same report.",
  ],
];

/** The gRPC twins of honest JSON vectors. */
export function grpcTwins(defs: readonly VectorDefinition[]): GrpcVectorDefinition[] {
  return TWINS.map(([name, of, grpc, description]) => {
    const base = defs.find((d) => d.name === of);
    if (!base) throw new ProducerError("PRODUCER_INVALID_OPTION", `no vector ${of} to take a gRPC twin of`);
    return { name, description, mutation: null, options: base.options, expected: base.expected, grpc };
  });
}
