/** A gated SDK client that keeps, for each verdict it let through, the capture the gate verified. */
import { afterAll, beforeAll } from "vitest";
import { evidenceGate, type EvidenceGateOptions } from "../../src/a2a-js/index.js";
import type { Report } from "../../src/index.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { isSend, sdkClient, Tap, type Binding } from "./client.js";
import { TRUST } from "./reports.js";
import { startLiveServer, type LiveServer } from "./server.js";

export type Json = Record<string, unknown>;

/** A gate asking for EXTERNALLY_REGISTERED under the producer's trust, keeping what it let through. */
export function keepingGate(options: Partial<EvidenceGateOptions> = {}) {
  const accepted: { report: Report; capture: Json }[] = [];
  const gate = evidenceGate({
    requirement: { minimumEvidence: "EXTERNALLY_REGISTERED", maximumRegistrationDelaySeconds: 60 },
    trust: TRUST,
    onAccepted: (report, _task, capture) => accepted.push({ report, capture }),
    ...options,
  });
  return { gate, accepted };
}

/** An SDK client over the binding with a keeping gate, its exchanges tapped; `polling: false` makes its sendMessage blocking. */
export async function gatedClient(
  live: LiveServer,
  binding: Binding,
  options: Partial<EvidenceGateOptions> = {},
  polling = true,
) {
  const { gate, accepted } = keepingGate(options);
  const tap = new Tap();
  const client = await sdkClient(live.baseUrl, binding, { tap, interceptors: [gate], polling });
  return { client, tap, accepted };
}

/** The Message of the last SendMessage the client put on the wire. */
export function lastSentMessage(tap: Tap): Json {
  const body = JSON.parse(tap.last(isSend).requestBody ?? "{}");
  return (body.params?.message ?? body.message) as Json;
}

/** The evidence requirement in a Message's metadata. */
export const requirementOf = (message: unknown): Json | undefined =>
  ((message as Json | undefined)?.metadata as Json | undefined)?.[EXTENSION_URI] as Json | undefined;

/** A live server for the file's tests: started before them, stopped after; the getter reads it. */
export function useLiveServer(): () => LiveServer {
  let server: LiveServer | undefined;
  beforeAll(async () => {
    server = await startLiveServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error("the live server has not started");
    return server;
  };
}
