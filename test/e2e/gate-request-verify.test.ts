/**
 * A server that echoes the caller's Message with a weaker requirement, accepts what was asked and
 * seals what it shows — every signature valid — is refused by the gate as a FAIL of the binding:
 * the capture it verifies holds the Message the client sent as `request`, and the server's copy is
 * not it (taskBinding `transcript.request`, contract §3).
 */
import { describe, expect, it } from "vitest";
import { onlyInput, refusal } from "../helpers/gate.js";
import { BINDINGS, sendRequest } from "./client.js";
import { gatedClient, useLiveServer } from "./gated.js";
import { pollToTerminal } from "./harness.js";

const server = useLiveServer();

for (const binding of BINDINGS) {
  describe(`the gate over ${binding}`, () => {
    it("refuses a weaker echo of its requirement: EVIDENCE_FAILED, taskBinding FAIL with transcript.request", async () => {
      const { client, accepted } = await gatedClient(server(), binding);
      const first = await client.sendMessage(sendRequest("weaker-echo", "seal this weakened request", null));
      if ("messageId" in first) throw new Error("expected a Task");
      const e = await refusal(pollToTerminal(client, first.id));
      expect(accepted).toHaveLength(0);
      expect(e.reason).toBe("EVIDENCE_FAILED");
      const input = onlyInput(e.report);
      expect(input.properties.taskBinding.state).toBe("FAIL");
      expect(input.properties.taskBinding.checks.find((c) => c.id === "transcript.request")?.state).toBe("FAIL");
      expect(e.report?.policy.exitCode).toBe(1);
    });
  });
}
