/**
 * §9.21: the CLI never dies of its own output, verify() never throws, and one bad input never
 * hides the reports of the others.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { isFailedInput } from "../../../src/index.js";
import { bytesToBase64 } from "../../../src/util/bytes.js";
import { receiptFor } from "../../../producer/transparency.js";
import { transparencyServiceSigner } from "../../../producer/mutate.js";
import { jsonText } from "../../../producer/json-text.js";
import { REPO_ROOT } from "../../helpers/external.js";
import { tempFile } from "../../helpers/cli.js";
import { TS_URL } from "../../properties/harness.js";
import { honest, objectAt, verified, type AdversarialCase } from "../harness.js";

const BIN = join(REPO_ROOT, "bin", "a2a-evidence.cjs");
const BUILT = existsSync(join(REPO_ROOT, "dist", "cli", "main.js"));

interface Exit {
  readonly code: number | null;
  readonly stderr: string;
}

/** Runs the built CLI; `onStdout` may end the reader early (a `| head`). */
function runBin(
  args: string[],
  stdout: "pipe" | number,
  onStdout?: (stream: NodeJS.ReadableStream & { destroy(): void }) => void,
): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", stdout, "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => void (stderr += d.toString()));
    if (child.stdout && onStdout) onStdout(child.stdout);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

/** Many honest inputs with -v: far more output than a pipe buffers. */
function largeRun(): string[] {
  const e = honest();
  const input = tempFile("input.json", jsonText(e.input));
  const trust = tempFile("trust.json", jsonText(e.trust));
  return ["verify", "-v", "--trust", trust, ...Array.from({ length: 60 }, () => input)];
}

function requireBuilt(): boolean {
  if (!BUILT) process.stderr.write("SKIPPED: the CLI output cases need dist/ (npm run build)\n");
  return BUILT;
}

/** An honest capture whose receipt's inclusion proof states a tree size beyond 2^64 (CBOR bigint), signed by the pinned key. */
function bigintReceipt() {
  return honest({
    tamper: {
      manifest: (m) => {
        const record = objectAt(m, "cllCheckpoint", "witnesses", 0);
        const huge = 2n ** 64n - 1n;
        const receipt = receiptFor(
          transparencyServiceSigner(TS_URL),
          huge as unknown as number,
          4,
          [],
          new Uint8Array(32),
        );
        record.receipt_b64 = bytesToBase64(receipt);
      },
    },
  });
}

export const OUTPUT_CASES: readonly AdversarialCase[] = [
  {
    name: "reader that stops early",
    rule: "§9.21",
    attack: "the report's reader closes the pipe after the first chunk (| head)",
    run: async () => {
      if (!requireBuilt()) return;
      const r = await runBin(largeRun(), "pipe", (out) => out.once("data", () => out.destroy()));
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    },
  },
  {
    name: "standard output on a full disk",
    rule: "§9.21",
    attack: "stdout is /dev/full: every write fails with ENOSPC",
    run: async () => {
      if (!requireBuilt() || !existsSync("/dev/full")) return;
      const fd = openSync("/dev/full", "w");
      try {
        const r = await runBin(largeRun(), fd);
        expect(r.code).toBe(2);
        expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
      } finally {
        closeSync(fd);
      }
    },
  },
  {
    name: "report file on a full disk",
    rule: "§9.21",
    attack: "(control) -o /dev/full",
    run: async () => {
      if (!requireBuilt() || !existsSync("/dev/full")) return;
      const r = await runBin([...largeRun(), "-o", "/dev/full"], "pipe");
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    },
  },
  {
    name: "receipt integer beyond 2^53",
    rule: "§9.21",
    attack: "a receipt signed by the pinned key whose inclusion proof states tree size 2^64 − 1 (a CBOR bigint)",
    request: () => {
      const e = bigintReceipt();
      return { inputs: [{ source: "attack", data: e.input }], trust: e.trust };
    },
    expected: { exitCode: 1, property: "externalRegistration", state: "FAIL" },
  },
  {
    name: "one bad input beside a good one",
    rule: "§9.21",
    attack: "the bigint receipt input first, an honest input second: both are reported",
    run: () => {
      const bad = bigintReceipt();
      const good = honest();
      const report = verified({
        inputs: [
          { source: "bad", data: bad.input },
          { source: "good", data: good.input },
        ],
        trust: good.trust,
      });
      expect(report.inputs.map((i) => [i.source, i.exitCode])).toEqual([
        ["bad", 1],
        ["good", 0],
      ]);
      expect(isFailedInput(report.inputs[1]!)).toBe(false);
      expect(report.policy.exitCode).toBe(1);
    },
  },
];
