/**
 * Cross-binding vectors (contract §3.1): one Task — one exchange, sealed once, on one log with one
 * Transparency Service — as a client of each A2A binding holds it. The GetTask answer over
 * JSON-RPC (the envelope), over REST (the bare Task) and over gRPC (the binary Task), each with
 * SendMessage's answer in that binding's form as the first Task (`args.json`: `--first-task`), and
 * the SendStreamingMessage answer over gRPC (StreamResponses in length-prefixed framing, whose
 * first message is the first Task). All four give one evidenceId and the same property states,
 * `negotiation` included: each shows the acceptance.
 *
 * The gRPC forms are encoded with the `@a2a-js/sdk` generated types (vectors-grpc.ts), an encoder
 * the verifier does not use.
 */
import { SendMessageResponse } from "@a2a-js/sdk";
import { A2AService } from "@a2a-js/sdk/server/grpc";
import { toPlain, type JsonObject } from "../src/json/value.js";
import type { Exchange } from "./exchange.js";
import { expectation } from "./expectations.js";
import { jsonObject, jsonText } from "./json-text.js";
import { streamEvents } from "./stream.js";
import { vectorLogId, vectorTransparencyUrl } from "./vector-log.js";
import { grpcStreamBytes, grpcTaskBytes } from "./vectors-grpc.js";
import { STREAM_BASE } from "./vectors-stream.js";
import type { VectorDefinition } from "./vectors.js";

export type BindingForm = "jsonrpc" | "rest" | "grpc-task" | "grpc-stream";

export interface BindingVectorDefinition extends VectorDefinition {
  readonly binding: BindingForm;
}

export function isBindingVector(def: VectorDefinition): def is BindingVectorDefinition {
  return (def as Partial<BindingVectorDefinition>).binding !== undefined;
}

/** The one Task's log and Transparency Service, shared by the four vectors (one world, one record). */
const SHARED = "valid-binding";
const OPTIONS = {
  ...STREAM_BASE,
  logId: vectorLogId(SHARED),
  witnesses: (STREAM_BASE.witnesses ?? []).map((w) => ({ ...w, url: vectorTransparencyUrl(SHARED) })),
};

const jsonRpc = (result: JsonObject) => jsonObject({ jsonrpc: "2.0", id: 1, result });

function sendMessageResponseBytes(firstTask: JsonObject): Uint8Array {
  return Uint8Array.from(
    A2AService.sendMessage.responseSerialize(SendMessageResponse.fromJSON(toPlain(jsonObject({ task: firstTask })))),
  );
}

/** The files of one form: the input, and for a GetTask form the first Task and the args.json naming it. */
export function renderBindingFiles(form: BindingForm, exchange: Exchange): (readonly [string, string | Uint8Array])[] {
  const { firstTask, finalTask } = exchange;
  const args = (first: string) => ["args.json", jsonText(["--first-task", first])] as const;
  switch (form) {
    case "jsonrpc":
      return [
        ["input.json", jsonText(jsonRpc(finalTask))],
        ["first.json", jsonText(jsonRpc(jsonObject({ task: firstTask })))],
        args("first.json"),
      ];
    case "rest":
      return [
        ["input.json", jsonText(finalTask)],
        ["first.json", jsonText(jsonObject({ task: firstTask }))],
        args("first.json"),
      ];
    case "grpc-task":
      return [
        ["input.binpb", grpcTaskBytes(finalTask)],
        ["first.binpb", sendMessageResponseBytes(firstTask)],
        args("first.binpb"),
      ];
    case "grpc-stream":
      return [["input.grpc", grpcStreamBytes(streamEvents(exchange))]];
  }
}

const FORMS: readonly (readonly [BindingForm, string])[] = [
  [
    "jsonrpc",
    "One Task over JSON-RPC: the GetTask response envelope (input.json), with the SendMessage response envelope as --first-task (first.json, named in args.json).",
  ],
  [
    "rest",
    "The same Task over HTTP+JSON (REST): the bare Task of the GetTask body (input.json), with the SendMessage body {task} as --first-task (first.json).",
  ],
  [
    "grpc-task",
    "The same Task over gRPC: GetTask's binary protobuf Task (input.binpb), with SendMessage's binary SendMessageResponse as --first-task (first.binpb).",
  ],
  [
    "grpc-stream",
    "The same Task over gRPC streamed: SendStreamingMessage's StreamResponses in gRPC length-prefixed framing (input.grpc), whose first message is the first Task.",
  ],
];

/** valid-binding-*: the four forms of one Task; the same evidenceId and the same report. */
export const BINDING_VECTORS: readonly BindingVectorDefinition[] = FORMS.map(([binding, description]) => ({
  name: `${SHARED}-${binding}`,
  description: `${description} The valid-binding-* vectors are one Task, sealed once: the same evidenceId and the same property states on every binding.`,
  mutation: null,
  options: OPTIONS,
  expected: expectation(),
  binding,
}));
