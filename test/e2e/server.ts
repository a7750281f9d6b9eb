/**
 * A real `@a2a-js/sdk` server on 127.0.0.1 (an ephemeral port), serving JSON-RPC at /a2a/jsonrpc,
 * HTTP+JSON at /a2a/rest and its Agent Card at /.well-known/agent-card.json, over one
 * DefaultRequestHandler with the SDK's in-memory Task store. What the agent does is a Task kind
 * (./kinds.ts), chosen per request by the request-level metadata member `e2e-kind` — request
 * metadata is not part of the Task, so the choice never shows in what the evidence commits to.
 * A request that names no kind (a plain client, such as `fetch --send`) gets the one-shot kind.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { AGENT_CARD_PATH, AgentCard, type AgentCardSignatureGenerator } from "@a2a-js/sdk";
import { DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { EXTENSION_URI, RECORD_PROFILE } from "../../producer/constants.js";
import * as grpcJs from "@grpc/grpc-js";
import { A2AService, grpcService, UserBuilder as GrpcUserBuilder } from "@a2a-js/sdk/server/grpc";
import { TASK_KINDS, runKind } from "./kinds.js";

export const KIND_METADATA_KEY = "e2e-kind";
const DEFAULT_KIND = "one-shot";

export interface LiveServer {
  readonly baseUrl: string;
  readonly jsonRpcUrl: string;
  readonly restUrl: string;
  /** The Agent Card as served (wire JSON). */
  readonly card: Record<string, unknown>;
  /** `127.0.0.1:<port>` of the gRPC server over the same request handler, when asked for. */
  readonly grpcAddress?: string;
  close(): Promise<void>;
}

export function agentCardJson(
  baseUrl: string,
  options: { streaming: boolean; grpcAddress?: string },
): Record<string, unknown> {
  return {
    name: "a2a-evidence e2e agent",
    description: "Seals A2A Task Evidence for each Task, with an independent producer.",
    version: "1.0.0",
    supportedInterfaces: [
      { url: `${baseUrl}/a2a/jsonrpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: `${baseUrl}/a2a/rest`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
      ...(options.grpcAddress ? [{ url: options.grpcAddress, protocolBinding: "GRPC", protocolVersion: "1.0" }] : []),
    ],
    capabilities: {
      streaming: options.streaming,
      pushNotifications: false,
      extensions: [
        {
          uri: EXTENSION_URI,
          description: "A2A Task Evidence",
          required: false,
          params: {
            recordProfiles: [RECORD_PROFILE],
            deliveryModes: ["EVIDENCE_ARTIFACT"],
            minimumEvidenceLevels: ["SIGNED_RECORD", "EXTERNALLY_REGISTERED"],
          },
        },
      ],
    },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      { id: "seal", name: "seal", description: "uppercases the text and seals the exchange", tags: ["evidence"] },
    ],
  };
}

const executor: AgentExecutor = {
  async execute(requestContext, eventBus) {
    const requested = requestContext.request.metadata?.[KIND_METADATA_KEY] ?? DEFAULT_KIND;
    const kind = typeof requested === "string" ? TASK_KINDS[requested] : undefined;
    if (!kind) throw new Error(`unknown e2e kind ${String(requested)} (known: ${Object.keys(TASK_KINDS).join(", ")})`);
    await runKind(kind, requestContext, eventBus);
  },
  async cancelTask() {
    // No kind runs long enough to be cancelled.
  },
};

/** A gRPC server on 127.0.0.1 (an ephemeral port); the SDK's gRPC service is added once the handler exists. */
async function bindGrpc(): Promise<{ server: grpcJs.Server; address: string }> {
  const server = new grpcJs.Server();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpcJs.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { server, address: `127.0.0.1:${port}` };
}

/** Starts the server (its card signed by `cardSigner`, when given); `close()` stops it and every connection it holds. */
export async function startLiveServer(
  options: { streaming?: boolean; cardSigner?: AgentCardSignatureGenerator; grpc?: boolean } = {},
): Promise<LiveServer> {
  const app = express();
  const server: Server = createServer(app);
  // A client keeps a connection for its next request; Node's server drops an idle one after 5 s.
  // On a loaded machine the two timers race, and a request written on a connection the server is
  // closing fails with ECONNRESET. Idle connections are kept for the life of the test instead:
  // close() ends every one of them.
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const grpc = options.grpc ? await bindGrpc() : undefined;
  const card = agentCardJson(baseUrl, {
    streaming: options.streaming ?? true,
    ...(grpc ? { grpcAddress: grpc.address } : {}),
  });
  const handler = new DefaultRequestHandler(
    AgentCard.fromJSON(card),
    new InMemoryTaskStore(),
    executor,
    undefined,
    undefined,
    undefined,
    undefined,
    options.cardSigner,
  );
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use("/a2a/rest", restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  grpc?.server.addService(
    A2AService,
    grpcService({ requestHandler: handler, userBuilder: GrpcUserBuilder.noAuthentication }),
  );
  return {
    baseUrl,
    jsonRpcUrl: `${baseUrl}/a2a/jsonrpc`,
    restUrl: `${baseUrl}/a2a/rest`,
    card,
    ...(grpc ? { grpcAddress: grpc.address } : {}),
    close: async () => {
      grpc?.server.forceShutdown();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
