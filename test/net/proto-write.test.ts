/**
 * The requests `fetch --binding grpc` writes by hand, read by the @a2a-js/sdk's generated codecs
 * (what an SDK gRPC server decodes them with) and by the verifier's strict reader.
 */
import { describe, expect, it } from "vitest";
import { GetTaskRequest, SendMessageRequest } from "@a2a-js/sdk";
import { A2AService } from "@a2a-js/sdk/server/grpc";
import { decodeMessage } from "../../src/input/protobuf/decode.js";
import { MESSAGE } from "../../src/input/protobuf/schema.js";
import { fromPlain, toPlain, type JsonObject } from "../../src/json/value.js";
import { getTaskRequestBytes, messageBytes, sendMessageRequestBytes } from "../../src/net/proto-write.js";
import { EXTENSION_URI } from "../../src/profile.js";

const message = {
  messageId: "m-1",
  role: "ROLE_USER",
  parts: [{ text: "post 5 EUR to ledger 7 · é", mediaType: "text/plain" }],
  metadata: {
    [EXTENSION_URI]: {
      requirement: "REQUIRED",
      minimumEvidence: "SIGNED_RECORD",
      deliveryModes: ["EVIDENCE_ARTIFACT"],
      maximumRegistrationDelaySeconds: 60,
      requireTask: true,
      nothing: null,
      ratio: 0.25,
    },
  },
  extensions: [EXTENSION_URI],
};

describe("the gRPC requests fetch writes", () => {
  it("GetTaskRequest: tenant, id and historyLength as the SDK reads them", () => {
    expect(
      GetTaskRequest.toJSON(A2AService.getTask.requestDeserialize(Buffer.from(getTaskRequestBytes("t-1")))),
    ).toEqual({ id: "t-1" });
    const full = A2AService.getTask.requestDeserialize(
      Buffer.from(getTaskRequestBytes("t-1", { tenant: "acme", historyLength: 300 })),
    );
    expect(GetTaskRequest.toJSON(full)).toEqual({ tenant: "acme", id: "t-1", historyLength: 300 });
  });

  it("SendMessageRequest: the Message, non-blocking, as the SDK reads it", () => {
    const decoded = A2AService.sendMessage.requestDeserialize(
      Buffer.from(sendMessageRequestBytes(message as never, "acme")),
    );
    expect(SendMessageRequest.toJSON(decoded)).toEqual({
      tenant: "acme",
      message,
      configuration: { returnImmediately: true },
    });
  });

  it("the Message read back by the strict reader is the Message built (numbers as JsonNumber or plain)", () => {
    for (const built of [message, fromPlain(message) as JsonObject]) {
      const read = decodeMessage(messageBytes(built as never), MESSAGE, { maxDepth: 64 });
      expect(toPlain(read.value)).toEqual(message);
    }
  });
});
