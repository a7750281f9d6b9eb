/**
 * `fetch --send` keeps its own word (contract §9.29): the capture records the Message it sent, as
 * sent, under "request", and a server whose copy of it is another Message — a weaker requirement,
 * another request — is named on stderr, saved all the same, and exits 1. Against local servers on
 * 127.0.0.1 that seal real evidence, through the built CLI.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXTENSION_URI } from "../../src/profile.js";
import { BUILT, fetchFrom, runBuilt, trustFile } from "./request-servers.js";

if (!BUILT) process.stderr.write("SKIPPED: fetch request tests: dist/ is not built (npm run build)\n");

function saved(capture: string): { text: string; value: Record<string, Record<string, unknown>> } {
  const text = readFileSync(capture, "utf8");
  return { text, value: JSON.parse(text) };
}

describe.skipIf(!BUILT)("fetch --send records the Message it sent and compares the server's copies with it", () => {
  it("an honest server: the request is recorded as sent, exit 0, and the capture verifies", async () => {
    const { capture, run } = await fetchFrom("honest", "SIGNED_RECORD");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const { text, value } = saved(capture);
    expect(text.startsWith('{"request":{"messageId":"')).toBe(true);
    const request = value.request as Record<string, unknown>;
    expect(request).toMatchObject({
      role: "ROLE_USER",
      parts: [{ text: "post 5 EUR to ledger 7", mediaType: "text/plain" }],
      extensions: [EXTENSION_URI],
    });
    expect((request.metadata as Record<string, Record<string, unknown>>)[EXTENSION_URI]?.minimumEvidence).toBe(
      "SIGNED_RECORD",
    );
    expect(Object.keys(value)).toEqual(["request", "firstTask", "finalTask"]);
    const verified = await runBuilt(["verify", "--format", "json", "--trust", trustFile(), capture]);
    expect(JSON.parse(verified.stdout).inputs[0].properties.taskBinding.state).toBe("PASS");
    expect(verified.code).toBe(0);
  });

  it("a server that re-encodes the Message (60.0 for 60): the same Message to fetch as to verify, exit 0", async () => {
    const { capture, run } = await fetchFrom("reencoded", "SIGNED_RECORD");
    const { text } = saved(capture);
    expect(text).toContain('"maximumRegistrationDelaySeconds":60.0');
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const verified = await runBuilt(["verify", "--format", "json", "--trust", trustFile(), capture]);
    const taskBinding = JSON.parse(verified.stdout).inputs[0].properties.taskBinding;
    expect(taskBinding.state).toBe("PASS");
    expect(taskBinding.checks).toContainEqual(expect.objectContaining({ id: "transcript.request", state: "PASS" }));
    expect(verified.code).toBe(0);
  });

  it("a server that echoes a weaker minimumEvidence: named on stderr, saved with what was sent, exit 1", async () => {
    const { capture, run } = await fetchFrom("weaker", "EXTERNALLY_REGISTERED");
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^saved .*capture\.json .*Task t-1 reached TASK_STATE_COMPLETED/);
    expect(run.stderr.split("\n").filter((l) => l !== "")).toHaveLength(1);
    expect(run.stderr).toBe(
      `a2a-evidence: fetch: the first Task's copy of the Message sent (history[0]) is not that Message: metadata["${EXTENSION_URI}"].minimumEvidence is "SIGNED_RECORD", sent "EXTERNALLY_REGISTERED"; saved with the Message sent as "request" (verify FAILs it: taskBinding transcript.request)\n`,
    );
    const { value } = saved(capture);
    const requirement = (value.request?.metadata as Record<string, Record<string, unknown>>)[EXTENSION_URI];
    expect(requirement?.minimumEvidence).toBe("EXTERNALLY_REGISTERED");
    const copy = (value.firstTask?.history as Record<string, Record<string, Record<string, unknown>>>[])[0];
    expect(copy?.metadata?.[EXTENSION_URI]?.minimumEvidence).toBe("SIGNED_RECORD");
  });

  it("a server that shows another request (other messageId, other text): named on stderr, saved, exit 1", async () => {
    const { capture, run } = await fetchFrom("other", "SIGNED_RECORD");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^a2a-evidence: fetch: the first Task's copy of the Message sent \(history\[0\]\) is not that Message: messageId is "other-[^"]+", sent "[^"]+"; saved with the Message sent as "request" /,
    );
    const { value } = saved(capture);
    expect(value.request?.parts).toEqual([{ text: "post 5 EUR to ledger 7", mediaType: "text/plain" }]);
    expect(String(value.request?.messageId)).not.toMatch(/^other-/);
  });
});

describe.skipIf(!BUILT)(
  "fetch --send over gRPC records the Message it sent as the strict reader reads its bytes",
  () => {
    it("an honest server: request, firstTask, finalTask in ProtoJSON, the binary answers beside them, exit 0", async () => {
      const { capture, run } = await fetchFrom("honest", "SIGNED_RECORD", "grpc");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const { value } = saved(capture);
      expect(Object.keys(value)).toEqual(["request", "firstTask", "finalTask"]);
      expect(value.request).toMatchObject({
        role: "ROLE_USER",
        parts: [{ text: "post 5 EUR to ledger 7", mediaType: "text/plain" }],
        extensions: [EXTENSION_URI],
      });
      const sidecar = JSON.parse(readFileSync(`${capture}.fetch.json`, "utf8"));
      expect(sidecar.rawAnswers).toEqual({ firstTask: `${capture}.first.binpb`, finalTask: `${capture}.final.binpb` });
      const asCapture = await runBuilt(["verify", "--format", "json", "--trust", trustFile(), capture]);
      const asBinary = await runBuilt([
        ...["verify", "--format", "json", "--trust", trustFile(), "--first-task", `${capture}.first.binpb`],
        `${capture}.final.binpb`,
      ]);
      expect(asCapture.code).toBe(0);
      expect(asBinary.code).toBe(0);
      const [a, b] = [asCapture, asBinary].map((r) => JSON.parse(r.stdout).inputs[0]);
      expect(a.properties.taskBinding.checks).toContainEqual(
        expect.objectContaining({ id: "transcript.request", state: "PASS" }),
      );
      expect(a.evidenceId).toMatch(/^[0-9a-f]{64}$/);
      expect(b.evidenceId).toBe(a.evidenceId);
      const states = (i: { properties: Record<string, { state: string }> }) =>
        Object.fromEntries(Object.entries(i.properties).map(([p, r]) => [p, r.state]));
      expect(states(b)).toEqual(states(a));
    });

    it("a server whose copy carries a weaker minimumEvidence: named, saved with what was sent, exit 1; verify FAILs it", async () => {
      const { capture, run } = await fetchFrom("weaker", "EXTERNALLY_REGISTERED", "grpc");
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `a2a-evidence: fetch: the first Task's copy of the Message sent (history[0]) is not that Message: metadata["${EXTENSION_URI}"].minimumEvidence is "SIGNED_RECORD", sent "EXTERNALLY_REGISTERED"; saved with the Message sent as "request" (verify FAILs it: taskBinding transcript.request)\n`,
      );
      const verified = await runBuilt(["verify", "--format", "json", "--trust", trustFile(), capture]);
      const input = JSON.parse(verified.stdout).inputs[0];
      expect(input.properties.taskBinding.state).toBe("FAIL");
      expect(input.properties.taskBinding.checks).toContainEqual(
        expect.objectContaining({ id: "transcript.request", state: "FAIL" }),
      );
      expect(verified.code).toBe(1);
    });

    it("a server that shows another request: named on stderr, saved, exit 1", async () => {
      const { capture, run } = await fetchFrom("other", "SIGNED_RECORD", "grpc");
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/is not that Message: messageId is "other-[^"]+", sent "[^"]+"; saved /);
      expect(String(saved(capture).value.request?.messageId)).not.toMatch(/^other-/);
    });
  },
);
