import { spawn, spawnSync, type StdioOptions } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
      reason: "101 bytes exceeds the 100-byte input limit",
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
      reason: "exceeds the 100000-byte input limit",
    });
  });

  it("names a directory and a missing file", async () => {
    expect(await readInput(dir)).toEqual({ ok: false, message: `${dir}: is a directory`, reason: "is a directory" });
    const missing = join(dir, "missing.json");
    expect(await readInput(missing)).toEqual({
      ok: false,
      message: `${missing}: no such file`,
      reason: "no such file",
    });
  });
});

/**
 * Standard input is read in a child process: `readInput("-")` with a limit of 100,000 bytes,
 * twice (standard input can be read once: the second read must give what the first gave),
 * printing what it got (its length and SHA-256, and with `capacity` the size of the buffer the
 * bytes are a view of) or its message.
 */
const PROBE = file(
  "stdin-probe.mts",
  `import { createHash } from "node:crypto";
   import { readInput } from ${JSON.stringify(join(REPO_ROOT, "src", "cli", "read.ts"))};
   const show = (r) => r.ok
     ? { ok: true, length: r.bytes.length, sha256: createHash("sha256").update(r.bytes).digest("hex"),
         ...(process.env.PROBE_CAPACITY ? { capacity: r.bytes.buffer.byteLength } : {}) }
     : r;
   const first = show(await readInput("-", 100_000));
   const again = show(await readInput("-", 100_000));
   const out = JSON.stringify(first) === JSON.stringify(again) ? first : { first, again };
   if (process.env.PROBE_CAPACITY) out.maxRssKb = process.resourceUsage().maxRSS;
   process.stdout.write(JSON.stringify(out));`,
);
const readVector = () => readFileSync(join(REPO_ROOT, "vectors", "valid-capture", "input.json"));
const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");
const probeArgs = ["--import", "tsx", PROBE];
const probeCommand = JSON.stringify([process.execPath, ...probeArgs]);

function probe(stdio: { input: string } | { fd: number }): unknown {
  const options = "input" in stdio ? { input: stdio.input } : { stdio: [stdio.fd, "pipe", "pipe"] as StdioOptions };
  const r = spawnSync(process.execPath, probeArgs, { encoding: "utf8", cwd: REPO_ROOT, ...options });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

const python = ["python3", "python"].find(
  (exe) => spawnSync(exe, ["-c", "import os; os.set_blocking"], { stdio: "ignore" }).status === 0,
);
if (!python) process.stderr.write("SKIPPED: stdin tests that need python3 (non-blocking pipes, FIFOs, signals)\n");

/** The end of each Python script below: the probe's status, stderr and stdout, as JSON. */
const REPORT = `out = p.stdout.read()
err = p.stderr.read()
sys.stdout.write(json.dumps({"status": p.wait(), "stderr": err.decode(), "stdout": out.decode()}))
`;

/**
 * Runs `script` in Python with the probe's command line as sys.argv[1] and the repository as
 * sys.argv[2]; the script prints the probe's status, stderr and stdout as JSON.
 */
function viaPython(script: string, ...args: string[]): { status: number; stderr: string; stdout: string } {
  const r = spawnSync(python as string, ["-c", script, probeCommand, REPO_ROOT, ...args], {
    encoding: "utf8",
    timeout: 240_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { status: number; stderr: string; stdout: string };
}

describe("readInput of standard input", () => {
  const text = "y".repeat(99_000) + "z".repeat(1_000);

  it("reads a pipe whole, over several reads, up to the limit exactly; a second read gives the same", () => {
    expect(probe({ input: text })).toEqual({ ok: true, length: 100_000, sha256: sha256(text) });
    expect(probe({ input: "" })).toEqual({ ok: true, length: 0, sha256: sha256("") });
  });

  it("refuses a pipe that sends one byte more than the limit, and refuses it again", () => {
    expect(probe({ input: text + "!" })).toEqual({
      ok: false,
      message: "stdin: exceeds the 100000-byte input limit",
      reason: "exceeds the 100000-byte input limit",
    });
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
      expect(probe({ fd: d })).toEqual({ ok: false, message: "stdin: is a directory", reason: "is a directory" });
    } finally {
      closeSync(d);
    }
  });

  it("reads /dev/null, a character device: empty", () => {
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
      // The probe gets a pipe whose read end is non-blocking; half is written, then the rest a
      // second later: the first read(2) gets the half, the next one meets EAGAIN.
      const got = viaPython(
        `
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
${REPORT}`,
        text,
      );
      expect(got.status, got.stderr).toBe(0);
      expect(JSON.parse(got.stdout)).toEqual({ ok: true, length: 100_000, sha256: sha256(text) });
    },
    300_000,
  );

  it.skipIf(!python)(
    "a pipe fed one byte at a time: every byte, in one buffer that grows only as it fills",
    () => {
      // Each read(2) returns one byte; a buffer per read would hold 64 KiB for each of them.
      const got = viaPython(
        `
import os, subprocess, sys, time, json
env = dict(os.environ, PROBE_CAPACITY="1")
p = subprocess.Popen(json.loads(sys.argv[1]), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=sys.argv[2], env=env)
time.sleep(1.5)
for b in sys.argv[3].encode():
    p.stdin.write(bytes([b]))
    p.stdin.flush()
    time.sleep(0.0005)
p.stdin.close()
${REPORT}`,
        text.slice(0, 4_000),
      );
      expect(got.status, got.stderr).toBe(0);
      const r = JSON.parse(got.stdout) as {
        ok: boolean;
        length: number;
        sha256: string;
        capacity: number;
        maxRssKb: number;
      };
      expect([r.ok, r.length, r.sha256]).toEqual([true, 4_000, sha256(text.slice(0, 4_000))]);
      expect(r.capacity).toBeLessThanOrEqual(64 * 1024);
      // Thousands of short reads: 64 KiB kept for each would be a quarter of a GB more.
      expect(r.maxRssKb).toBeLessThan(200 * 1024);
    },
    300_000,
  );

  it.skipIf(!python)(
    "a FIFO opened non-blocking before its writer connects: waits for the writer, reads it all",
    () => {
      // Until a writer connects, such a FIFO reads as empty (0 bytes), which is not the input's end.
      const got = viaPython(
        `
import os, subprocess, sys, time, json, tempfile
d = tempfile.mkdtemp()
path = os.path.join(d, "fifo")
os.mkfifo(path)
r = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
p = subprocess.Popen(json.loads(sys.argv[1]), stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=sys.argv[2])
os.close(r)
time.sleep(1.0)
w = os.open(path, os.O_WRONLY)
os.write(w, sys.argv[3].encode())
os.close(w)
out, err = p.communicate()
os.unlink(path); os.rmdir(d)
sys.stdout.write(json.dumps({"status": p.returncode, "stderr": err.decode(), "stdout": out.decode()}))
`,
        text.slice(0, 5_000),
      );
      expect(got.status, got.stderr).toBe(0);
      expect(JSON.parse(got.stdout)).toEqual({ ok: true, length: 5_000, sha256: sha256(text.slice(0, 5_000)) });
    },
    300_000,
  );

  it.skipIf(!python || process.platform !== "linux")(
    "a descriptor of no file type (an eventfd): read as Node's stream reads it, not waited on for ever",
    () => {
      const got = viaPython(`
import os, subprocess, sys, json
fd = os.eventfd(0)
p = subprocess.Popen(json.loads(sys.argv[1]), stdin=fd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=sys.argv[2])
os.close(fd)
try:
    out, err = p.communicate(timeout=200)
    status = p.returncode
except subprocess.TimeoutExpired:
    p.kill()
    out, err = p.communicate()
    status = "hung"
sys.stdout.write(json.dumps({"status": status, "stderr": err.decode(), "stdout": out.decode()}))
`);
      expect(got.status, got.stderr).toBe(0);
      expect(JSON.parse(got.stdout)).toEqual({ ok: true, length: 0, sha256: sha256("") });
    },
    300_000,
  );

  it.skipIf(!python || process.platform !== "linux")(
    "a read interrupted by a signal (EINTR) is read again",
    () => {
      // SIGUSR1 starts Node's inspector; its handler interrupts a blocking read(2). On port 0,
      // so that no port is taken.
      const got = viaPython(
        `
import os, subprocess, sys, time, json, signal
cmd = json.loads(sys.argv[1])
cmd.insert(1, "--inspect-port=0")
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=sys.argv[2])
time.sleep(1.5)
p.send_signal(signal.SIGUSR1)
time.sleep(0.5)
p.stdin.write(sys.argv[3].encode())
p.stdin.close()
${REPORT}`,
        text.slice(0, 5_000),
      );
      expect(got.status, got.stderr).toBe(0);
      expect(JSON.parse(got.stdout)).toEqual({ ok: true, length: 5_000, sha256: sha256(text.slice(0, 5_000)) });
    },
    300_000,
  );
});

describe("standard input over the limit, on the command line", () => {
  const RUNNER = join(REPO_ROOT, "test", "helpers", "run-cli.ts");

  it("is named as any other file is (`stdin: exceeds …`) where the line names the file: an @- list", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", RUNNER, "verify", "-q", "@-"], {
      input: Buffer.alloc(16 * 1024 * 1024 + 1, 0x20),
      encoding: "utf8",
      cwd: REPO_ROOT,
    });
    expect([r.status, r.stdout, r.stderr]).toEqual([
      2,
      "",
      "a2a-evidence: @-: INPUT_UNREADABLE: exceeds the 16777216-byte input limit\n",
    ]);
  }, 300_000);
});

describe("a run that reads its inputs twice", () => {
  const RUNNER = join(REPO_ROOT, "test", "helpers", "run-cli.ts");
  const v = (name: string, f: string) => join(REPO_ROOT, "vectors", name, f);

  it("gets standard input's refusal again, never the bytes after the part it refused", () => {
    // More than the limit, then a whole valid input: read again from where the first read stopped,
    // standard input would give that input, verified only after the comparison across inputs.
    const padded = join(dir, "padded.json");
    writeFileSync(padded, Buffer.concat([Buffer.alloc(16 * 1024 * 1024 + 1, 0x20), Buffer.from(readVector())]));
    for (const [what, args, env] of [
      ["--explain", ["--explain"], {}],
      ["no temporary folder for the spool", [], { TMPDIR: join(dir, "no", "such", "folder") }],
    ] as const) {
      const fd = openSync(padded, "r");
      try {
        const r = spawnSync(
          process.execPath,
          ["--import", "tsx", RUNNER, "verify", ...args, "--trust", v("valid-capture", "trust.json"), "-"].concat(
            v("valid-capture", "input.json"),
          ),
          { stdio: [fd, "pipe", "pipe"], encoding: "utf8", cwd: REPO_ROOT, env: { ...process.env, ...env } },
        );
        expect(r.status, what).toBe(2);
        // Said once: the text report on stdout names the error; stderr does not repeat it.
        expect(r.stderr, what).toBe("");
        expect(r.stdout.split("\n").slice(0, 3), what).toEqual([
          "stdin",
          "  error INPUT_UNREADABLE: exceeds the 16777216-byte input limit",
          "  exit 2: the input could not be verified: INPUT_UNREADABLE",
        ]);
      } finally {
        closeSync(fd);
      }
    }
  }, 300_000);
});
