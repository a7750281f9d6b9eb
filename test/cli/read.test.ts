import { spawn, spawnSync, type StdioOptions } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readInput } from "../../src/cli/read.js";
import { REPO_ROOT } from "../helpers/external.js";

const dir = mkdtempSync(join(tmpdir(), "read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Uint8Array | string): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const hasMkfifo = spawnSync("mkfifo", ["--version"], { stdio: "ignore" }).status === 0;

/** A FIFO fed `bytes` by another process: it reports size 0, so only the read loop sees how much comes. */
function fifo(name: string, bytes: number): string {
  const path = join(dir, name);
  expect(spawnSync("mkfifo", [path]).status).toBe(0);
  spawn("sh", ["-c", `head -c ${bytes} /dev/zero | tr '\\0' 'x' > "$0"`, path], { stdio: "ignore" });
  return path;
}

describe("readInput", () => {
  it("returns exactly the file's bytes, as a view of its own buffer", async () => {
    const content = new Uint8Array(70_000).map((_, i) => (i * 7) & 0xff);
    const r = await readInput(file("a.bin", content));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Buffer.from(r.bytes).equals(Buffer.from(content))).toBe(true);
    expect(r.bytes.byteOffset).toBe(0);
    // One byte of room is kept to notice growth; it is zeroed, not left as it was.
    expect(r.bytes.buffer.byteLength).toBe(content.length + 1);
    expect(new Uint8Array(r.bytes.buffer)[content.length]).toBe(0);
  });

  it("reads an empty file", async () => {
    const r = await readInput(file("empty.json", ""));
    expect(r).toEqual({ ok: true, bytes: new Uint8Array(0) });
  });

  it("takes a file of exactly the limit and refuses one byte more", async () => {
    const at = await readInput(file("at.json", "x".repeat(100)), 100);
    expect(at.ok && at.bytes.length).toBe(100);
    const over = await readInput(file("over.json", "x".repeat(101)), 100);
    expect(over).toEqual({
      ok: false,
      message: `${join(dir, "over.json")}: 101 bytes exceeds the 100-byte input limit`,
    });
  });

  it.skipIf(!hasMkfifo)("reads a FIFO, whose size fstat gives as 0, growing its buffer as bytes come", async () => {
    const r = await readInput(fifo("small.fifo", 200_000), 1_000_000);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.bytes.length).toBe(200_000);
    expect(r.bytes.every((b) => b === 0x78)).toBe(true);
  });

  it.skipIf(!hasMkfifo)("caps a FIFO that sends more than the limit", async () => {
    const path = fifo("big.fifo", 300_000);
    expect(await readInput(path, 100_000)).toEqual({
      ok: false,
      message: `${path}: exceeds the 100000-byte input limit`,
    });
  });

  it("names a directory and a missing file", async () => {
    expect(await readInput(dir)).toEqual({ ok: false, message: `${dir}: is a directory` });
    const missing = join(dir, "missing.json");
    expect(await readInput(missing)).toEqual({ ok: false, message: `${missing}: no such file` });
  });
});

/**
 * Standard input is read in a child process: `readInput("-")` with a limit of 100,000 bytes,
 * printing what it got (its length and SHA-256) or its message.
 */
const PROBE = file(
  "stdin-probe.mts",
  `import { createHash } from "node:crypto";
   import { readInput } from ${JSON.stringify(join(REPO_ROOT, "src", "cli", "read.ts"))};
   const r = await readInput("-", 100_000);
   process.stdout.write(JSON.stringify(r.ok ? { ok: true, length: r.bytes.length, sha256: createHash("sha256").update(r.bytes).digest("hex") } : r));`,
);
const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");
const probeArgs = ["--import", "tsx", PROBE];

function probe(stdio: { input: string } | { fd: number }): unknown {
  const options = "input" in stdio ? { input: stdio.input } : { stdio: [stdio.fd, "pipe", "pipe"] as StdioOptions };
  const r = spawnSync(process.execPath, probeArgs, { encoding: "utf8", cwd: REPO_ROOT, ...options });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

const python = ["python3", "python"].find(
  (exe) => spawnSync(exe, ["-c", "import os; os.set_blocking"], { stdio: "ignore" }).status === 0,
);
if (!python) process.stderr.write("SKIPPED: non-blocking stdin test: no python3 on PATH\n");

describe("readInput of standard input", () => {
  const text = "y".repeat(99_000) + "z".repeat(1_000);

  it("reads a pipe whole, over several reads, up to the limit exactly", () => {
    expect(probe({ input: text })).toEqual({ ok: true, length: 100_000, sha256: sha256(text) });
    expect(probe({ input: "" })).toEqual({ ok: true, length: 0, sha256: sha256("") });
  });

  it("refuses a pipe that sends one byte more than the limit", () => {
    expect(probe({ input: text + "!" })).toEqual({ ok: false, message: "stdin exceeds the 100000-byte input limit" });
  });

  it("reads a file given as standard input, and names a directory", () => {
    const path = file("stdin.txt", text);
    const fd = openSync(path, "r");
    try {
      expect(probe({ fd })).toEqual({ ok: true, length: 100_000, sha256: sha256(text) });
    } finally {
      closeSync(fd);
    }
    const d = openSync(dir, "r");
    try {
      expect(probe({ fd: d })).toEqual({ ok: false, message: "stdin: is a directory" });
    } finally {
      closeSync(d);
    }
  });

  it("reads /dev/null, a character device, through Node's stream: empty", () => {
    const fd = openSync("/dev/null", "r");
    try {
      expect(probe({ fd })).toEqual({ ok: true, length: 0, sha256: sha256("") });
    } finally {
      closeSync(fd);
    }
  });

  it.skipIf(!python)(
    "a non-blocking pipe that is empty for a while (EAGAIN): the rest is read by the stream, nothing lost",
    () => {
      // Python hands the probe a pipe whose read end is non-blocking, writes half, waits, then
      // writes the rest: the first read(2) gets the half, the next one meets EAGAIN.
      const py = `
import os, subprocess, sys, time, json
r, w = os.pipe()
os.set_blocking(r, False)
p = subprocess.Popen(json.loads(sys.argv[1]), stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=sys.argv[2])
os.close(r)
data = sys.argv[3].encode()
os.write(w, data[:40000])
time.sleep(1.0)
os.write(w, data[40000:])
os.close(w)
out, err = p.communicate()
sys.stdout.write(json.dumps({"status": p.returncode, "stderr": err.decode(), "stdout": out.decode()}))
`;
      const r = spawnSync(
        python as string,
        ["-c", py, JSON.stringify([process.execPath, ...probeArgs]), REPO_ROOT, text],
        { encoding: "utf8" },
      );
      expect(r.status, r.stderr).toBe(0);
      const got = JSON.parse(r.stdout) as { status: number; stderr: string; stdout: string };
      expect(got.status, got.stderr).toBe(0);
      expect(JSON.parse(got.stdout)).toEqual({ ok: true, length: 100_000, sha256: sha256(text) });
    },
    30_000,
  );
});
