import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";
import { renderAll } from "../../producer/render.js";
import { PROPERTIES, achievedLevel, states } from "../../producer/expectations.js";
import { GENERAL_NOTES, VECTORS } from "../../producer/vectors.js";
import { brokenFacts, parse, streamCapture } from "./oracle.js";
import type { JsonObject } from "../../src/json/value.js";
import { StreamResponse, Task } from "@a2a-js/sdk";
import { A2AService } from "@a2a-js/sdk/server/grpc";

const VECTORS_DIR = join(REPO_ROOT, "vectors");

/** Paths of every file under `root`, relative to it, sorted. */
function listFiles(root: string, dir = root): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? listFiles(root, path) : [relative(root, path)];
    })
    .sort();
}

describe("the vector generator", () => {
  const out = mkdtempSync(join(tmpdir(), "a2a-evidence-vectors-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("writes, byte for byte, the committed vectors/ (and nothing else)", () => {
    execFileSync(
      process.execPath,
      [
        join(REPO_ROOT, "node_modules", "tsx", "dist", "cli.mjs"),
        join(REPO_ROOT, "producer", "generate-vectors.ts"),
        out,
      ],
      {
        cwd: REPO_ROOT,
      },
    );
    const generated = listFiles(out);
    expect(generated).toEqual(listFiles(VECTORS_DIR));
    for (const path of generated) {
      expect(readFileSync(join(out, path)), path).toEqual(readFileSync(join(VECTORS_DIR, path)));
    }
  });

  it("renders the same bytes twice (no clock, no randomness)", () => {
    expect([...renderAll(VECTORS, GENERAL_NOTES)]).toEqual([...renderAll(VECTORS, GENERAL_NOTES)]);
  });
});

describe("expected.json", () => {
  it.each(VECTORS.map((v) => [v.name, v] as const))(
    "%s lists every property in contract order, with a consistent level and exit code",
    (name, v) => {
      const expected = parse(readFileSync(join(VECTORS_DIR, name, "expected.json"))) as never as Record<
        string,
        unknown
      >;
      const plain = JSON.parse(readFileSync(join(VECTORS_DIR, name, "expected.json"), "utf8")) as {
        description: string;
        mutation: string | null;
        exitCode: number;
        properties: Record<string, string> | null;
        evidenceLevel: string | null;
      };
      expect(Object.keys(expected)).toEqual(["description", "mutation", "exitCode", "properties", "evidenceLevel"]);
      expect(plain.exitCode).toBe(v.expected.exitCode);
      expect(plain.mutation === null).toBe(name.startsWith("valid-") || name.startsWith("pending-"));
      if (v.expected.properties === null) {
        // A Task that has not ended: nothing to verify, exit 3 (docs/profile.md §5).
        expect([name.startsWith("pending-"), plain.properties, plain.evidenceLevel, plain.exitCode]).toEqual([
          true,
          null,
          null,
          3,
        ]);
        return;
      }
      expect(Object.keys(plain.properties ?? {})).toEqual([...PROPERTIES]);
      expect(plain.evidenceLevel).toBe(achievedLevel(v.expected.properties));
    },
  );

  it("has one negative per property that can FAIL, and each FAILs its own property", () => {
    const failable = PROPERTIES.filter((p) => p !== "captureCoverage" && p !== "outcomeCorroboration");
    for (const p of failable) {
      const negatives = VECTORS.filter((v) => v.name.startsWith(`neg-${p}-`));
      expect(negatives.length, p).toBeGreaterThan(0);
      for (const v of negatives) expect(v.expected.properties?.[p], v.name).toBe("FAIL");
    }
  });

  it("states the honest baseline exactly for every valid vector", () => {
    for (const v of VECTORS.filter((d) => d.name.startsWith("valid-"))) {
      expect(Object.values(v.expected.properties ?? { none: "FAIL" }), v.name).not.toContain("FAIL");
      expect(v.expected.exitCode, v.name).toBe(0);
    }
    expect(states().captureCoverage).toBe("INCONCLUSIVE");
  });
});

/**
 * Which elementary facts each vector breaks, read back from the written files by an oracle that
 * shares no proof or signature code with the producer. Honest vectors break none; each negative
 * breaks only the facts of the object it changed.
 */
const BROKEN: Record<string, string[]> = {
  "inconclusive-unpinned-ts": ["receiptPinned"],
  // Sealed as the profile commits, by text alone: no fact is broken. What the vector shows is that a
  // data part is bound by nothing, so taskBinding cannot PASS (docs/properties.md).
  "inconclusive-taskBinding-data-part": [],
  "neg-contentBinding-tenant-id": ["evidenceId", "payloadCopies"],
  "neg-producerSignature-capsule-member": ["capsuleId"],
  "neg-producerSignature-signature-byte": ["envelopeCopy", "envelopeSignature"],
  "neg-taskBinding-artifact-commitment": ["artifacts"],
  "neg-taskBinding-task-id": ["taskId"],
  "neg-localInclusion-witness-hash": ["localInclusion"],
  "neg-checkpointSignature-timestamp": ["checkpointSignature", "entryHash", "receipt"],
  "neg-externalRegistration-receipt-signature": ["receipt"],
  "neg-continuity-prior-root": ["chain", "consistency", "priorSignature"],
  "neg-continuity-consistency-proof": ["consistency"],
  "neg-identityAuthorityBinding-other-key": ["authorityKey"],
  "neg-referenceConsistency-task-evidence-id": ["referenceCopies"],
  "neg-referenceConsistency-terminal-pending": ["minimumMet", "statusTerminal"],
  "neg-negotiation-acceptance-minimum": ["acceptance"],
  // A PEAC receipt is no part of the evidence record: breaking one breaks none of its facts.
  "neg-peacReceipts-receipt-claims": [],
  "neg-taskBinding-stream-dropped-chunk": ["artifacts"],
  "neg-referenceConsistency-stream-final-metadata": ["referenceCopies", "statusTerminal"],
  "inconclusive-continuity-producer-witness": ["quorum"],
  "inconclusive-continuity-unknown-witness": ["quorum"],
  "neg-continuity-cosignature-signature": ["cosignatures", "quorum"],
  "neg-continuity-cosignature-other-root": ["cosignatures", "quorum"],
  "neg-continuity-stale-prior-as-current": ["cosignatures", "quorum"],
  "inconclusive-continuity-genesis": ["quorum"],
  "inconclusive-continuity-log-id": ["noteOrigin", "quorum"],
  // The lifecycle vectors (producer/vectors-lifecycle.ts, docs/profile.md).
  "neg-referenceConsistency-failed-untyped-reason": ["failureTyped", "minimumMet"],
  "neg-taskBinding-trace-digest": ["traceDigest"],
  "neg-contentBinding-interim-mutation": ["interimContent"],
  "neg-taskBinding-omitted-request": ["transcript", "transitions"],
  "neg-taskBinding-substituted-resumption": ["transcript", "transitions"],
  "neg-taskBinding-omitted-resumption": ["transcript", "transitions"],
  "neg-taskBinding-spliced-resumption": ["resumptionTask"],
  "neg-taskBinding-reordered-transitions": ["transitions"],
  "neg-taskBinding-missing-transition-out": ["transitions"],
  "neg-taskBinding-dropped-interim-citation": ["interimCitations"],
  "neg-taskBinding-interim-wrong-tenant": ["interimPrefix"],
  "neg-taskBinding-interim-wrong-task": ["interimPrefix"],
  "neg-taskBinding-interim-effect-dropped": ["artifacts", "interimPrefix"],
  "neg-producerSignature-interim-wrong-issuer": ["interimSignature"],
  "neg-checkpointSignature-interim-checkpoint": ["interimCheckpoint"],
  "neg-localInclusion-stale-proof": ["localInclusion"],
  "neg-localInclusion-interim-other-log": ["interimLog"],
  "neg-localInclusion-interim-later-leaf": ["interimLog"],
  "neg-externalRegistration-wrong-trust-anchor": ["receipt"],
  "neg-referenceConsistency-false-continuity-claim": ["claimSupported"],
  "neg-negotiation-requirement-changed-at-resume": ["requirementFixed"],
  "neg-referenceConsistency-pending-on-canceled": ["minimumMet", "statusTerminal"],
  "neg-referenceConsistency-pending-copy-beside-terminal": ["referenceCopies", "statusTerminal"],
  // The oracle does not model key windows (contract §5.1): these change only the trust file's
  // windows or drop the witness, and every fact it checks holds; test/keys judges the windows.
  "neg-keys-revoked-unwitnessed": [],
  "neg-keys-revoked-witnessed-after": [],
  "inconclusive-keys-retired-unwitnessed": [],
  "neg-keys-not-yet-valid": [],
  "inconclusive-keys-revoked-witness": [],
  // The same record as valid-keys-revoked-ts-at-before; only the caller's --at (args.json) differs.
  "inconclusive-keys-revoked-ts-at-after": [],
};

/** The vector's input as the oracle reads it: a JSON document, or a stream folded into the capture it observed. */
function oracleInput(name: string): string | JsonObject {
  const dir = join(VECTORS_DIR, name);
  // A gRPC vector, decoded by the SDK's generated types (not by the verifier) into its ProtoJSON.
  if (existsSync(join(dir, "input.binpb")))
    return JSON.stringify(Task.toJSON(A2AService.getTask.responseDeserialize(readFileSync(join(dir, "input.binpb")))));
  if (existsSync(join(dir, "input.grpc"))) {
    const b = readFileSync(join(dir, "input.grpc"));
    const lines: string[] = [];
    for (let pos = 0; pos < b.length; pos += 5 + b.readUInt32BE(pos + 1)) {
      const m = b.subarray(pos + 5, pos + 5 + b.readUInt32BE(pos + 1));
      lines.push(JSON.stringify(StreamResponse.toJSON(A2AService.sendStreamingMessage.responseDeserialize(m))));
    }
    return streamCapture("input.ndjson", lines.join("\n"));
  }
  const stream = ["input.sse", "input.ndjson"].find((f) => existsSync(join(dir, f)));
  return stream === undefined
    ? readFileSync(join(dir, "input.json"), "utf8")
    : streamCapture(stream, readFileSync(join(dir, stream), "utf8"));
}

describe("what each vector breaks", () => {
  it.each(VECTORS.map((v) => [v.name] as const))("%s", (name) => {
    const trust = readFileSync(join(VECTORS_DIR, name, "trust.json"), "utf8");
    expect(brokenFacts(oracleInput(name), trust)).toEqual(BROKEN[name] ?? []);
  });

  it("covers every vector that is not honest", () => {
    expect(Object.keys(BROKEN).sort()).toEqual(
      VECTORS.filter((v) => v.mutation !== null)
        .map((v) => v.name)
        .sort(),
    );
  });
});
