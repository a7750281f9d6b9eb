/**
 * A Task that paused for the caller's bank login and then ended, as one producer makes it: the
 * terminal exchange (over JSON-RPC) and the paused Task, whose evidence Artifact carries the
 * interim record the terminal record cites.
 */
import { uuidFromLabel } from "../../producer/a2a.js";
import { buildExchange, buildPausedExchange } from "../../producer/exchange.js";
import type { ExchangeOptions } from "../../producer/options.js";
import { agent, user } from "./messages.js";

export const PAUSED_FOR_LOGIN: ExchangeOptions = {
  taskId: uuidFromLabel("grpc interim task"),
  contextId: uuidFromLabel("grpc interim context"),
  transcript: [
    user("grpc interim 0", "Send 100 EUR to Bob."),
    agent("grpc interim 1", "Confirm with your bank login."),
    { transition: { from: "TASK_STATE_WORKING", to: "TASK_STATE_AUTH_REQUIRED" } },
    { transition: { from: "TASK_STATE_AUTH_REQUIRED", to: "TASK_STATE_WORKING" }, bound: false },
    agent("grpc interim 2", "Sent."),
  ],
  artifacts: [
    { artifactId: uuidFromLabel("grpc interim quote"), name: "quote", parts: ["100 EUR = 108 USD"], after: 0 },
  ],
  leavesBefore: 2,
  interim: [{ at: 2 }],
};

/** The terminal exchange and the paused one. */
export function pausedForLogin() {
  const done = buildExchange({ ...PAUSED_FOR_LOGIN, envelope: "jsonrpc" });
  const paused = buildPausedExchange({
    ...PAUSED_FOR_LOGIN,
    envelope: "paused",
    transcript: (PAUSED_FOR_LOGIN.transcript ?? []).slice(0, 3),
  });
  return { done, paused };
}
