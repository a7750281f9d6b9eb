import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readInput } from "../../src/cli/read.js";

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
