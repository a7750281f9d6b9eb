/**
 * What `fetch --send` saved from a server whose copy of the Message sent is another Message is
 * FAILed by `verify`: the capture's "request" is the caller's own observation, every server copy
 * must equal it (contract §3, taskBinding `transcript.request`). The built CLI, end to end.
 */
import { describe, expect, it } from "vitest";
import { BUILT, fetchFrom, runBuilt, trustFile, type CopyKind } from "../net/request-servers.js";

if (!BUILT) process.stderr.write("SKIPPED: fetch → verify request tests: dist/ is not built (npm run build)\n");

interface Check {
  readonly id: string;
  readonly state: string;
}

describe.skipIf(!BUILT)("verify FAILs a capture whose server copies are not the request fetch sent", () => {
  for (const [kind, minimum] of [
    ["weaker", "EXTERNALLY_REGISTERED"],
    ["other", "SIGNED_RECORD"],
  ] as const satisfies readonly (readonly [CopyKind, string])[]) {
    it(`${kind}: exit 1, taskBinding FAIL with transcript.request`, async () => {
      const { capture, run } = await fetchFrom(kind, minimum);
      expect(run.code).toBe(1);
      const verified = await runBuilt(["verify", "--format", "json", "-v", "--trust", trustFile(), capture]);
      expect(verified.code).toBe(1);
      const taskBinding = JSON.parse(verified.stdout).inputs[0].properties.taskBinding;
      expect(taskBinding.state).toBe("FAIL");
      expect((taskBinding.checks as Check[]).find((c) => c.id === "transcript.request")?.state).toBe("FAIL");
    });
  }
});
