/**
 * The gate verifies the Messages its client sent as the client sent them (contract §3): the
 * capture it verifies holds `request` (the Message that started the Task) and `requests` (those
 * that resumed it), taken from the SDK call's own arguments — the very Message on the wire — never
 * from the server's copy, which a dishonest server writes as it likes.
 */
import { describe, expect, it } from "vitest";
import { refusal } from "../helpers/gate.js";
import { BINDINGS, resumeRequest, sendRequest } from "./client.js";
import { gatedClient, useLiveServer, lastSentMessage, requirementOf, type Json } from "./gated.js";
import { INPUT_REQUIRED, pollToTerminal, pollUntil } from "./harness.js";

const server = useLiveServer();

for (const binding of BINDINGS) {
  describe(`the gate records what its client sent, over ${binding}`, () => {
    it("a one-shot Task: the capture verified holds the Message exactly as it went on the wire, as request", async () => {
      const { client, tap, accepted } = await gatedClient(server(), binding);
      const first = await client.sendMessage(sendRequest("one-shot", "seal this request", null));
      if ("messageId" in first) throw new Error("expected a Task");
      const wire = lastSentMessage(tap);
      await pollToTerminal(client, first.id);
      expect(accepted).toHaveLength(1);
      const capture = accepted[0]?.capture as Json;
      expect(Object.keys(capture)).toEqual(["request", "firstTask", "finalTask"]);
      expect(capture.request).toEqual(wire);
      expect(requirementOf(capture.request)?.minimumEvidence).toBe("EXTERNALLY_REGISTERED");
    });

    it("a paused Task: the resuming Message is kept as requests, the first as request", async () => {
      const { client, tap, accepted } = await gatedClient(server(), binding);
      const first = await client.sendMessage(sendRequest("paused", "seal this paused request", null));
      if ("messageId" in first) throw new Error("expected a Task");
      const sent = lastSentMessage(tap);
      const waiting = await pollUntil(client, first.id, new Set([INPUT_REQUIRED]));
      await client.sendMessage(resumeRequest("paused", { id: first.id, contextId: String(waiting.contextId) }));
      const resume = lastSentMessage(tap);
      await pollToTerminal(client, first.id);
      expect(accepted).toHaveLength(1);
      const capture = accepted[0]?.capture as Json;
      expect(capture.request).toEqual(sent);
      expect(capture.requests).toEqual([resume]);
    });

    it("a server that echoes a weaker requirement: what the gate verifies holds the requirement sent, not the echo", async () => {
      const { client, tap, accepted } = await gatedClient(server(), binding);
      const first = await client.sendMessage(sendRequest("weaker-echo", "seal this weakened request", null));
      if ("messageId" in first) throw new Error("expected a Task");
      const wire = lastSentMessage(tap);
      const e = await refusal(pollToTerminal(client, first.id));
      expect(accepted).toHaveLength(0);
      expect(e.capture?.request).toEqual(wire);
      expect(requirementOf(e.capture?.request)?.minimumEvidence).toBe("EXTERNALLY_REGISTERED");
      // The server's copy says otherwise: that is what a verdict read from the answer would have taken.
      const copy = ((e.capture?.finalTask as Json).history as Json[])[0];
      expect(requirementOf(copy)?.minimumEvidence).toBe("SIGNED_RECORD");
    });
  });
}
