/**
 * What a run holds per input until every input is compared: its sighting. Of each checkpoint whose
 * signature verified it keeps the statements it signs (log, key, sizes and roots), as strings and
 * numbers of its own: no byte string, no view of the input, nothing the comparison does not read.
 * What every input names alike (the producer's key, the log, a service) is kept once. Compared with
 * the checkpoints as parsed from the input.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { inputCheckpoints } from "../../src/properties/continuity/cross-input.js";
import { parseCheckpoint, verifyCheckpointSignature, type Checkpoint } from "../../src/log/checkpoint.js";
import type * as Ed25519 from "../../src/crypto/ed25519.js";
import { member, type JsonObject } from "../../src/json/value.js";
import { bytesToHex } from "../../src/util/bytes.js";
import { findEquivocations, shared, sharedCount, sighted } from "../../src/witness/equivocation.js";
import { capture } from "../properties/harness.js";

const counted = vi.hoisted(() => ({ verifications: 0 }));

vi.mock("../../src/crypto/ed25519.js", async (importOriginal) => {
  const actual = await importOriginal<typeof Ed25519>();
  return {
    ...actual,
    verifyEd25519: (...args: Parameters<typeof actual.verifyEd25519>) => {
      counted.verifications++;
      return actual.verifyEd25519(...args);
    },
  };
});

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === "old_space")?.space_used_size ?? 0;

function parsed(bundle: JsonObject, name: string): Checkpoint {
  const r = parseCheckpoint(member(member(bundle, "manifest") as JsonObject, name) as JsonObject, `manifest.${name}`);
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

describe("a sighting's checkpoints", () => {
  const e = capture();
  const sighting = inputCheckpoints("a.json", e.bundle, false);

  it("state what the input's checkpoints state: log, key, sizes and roots", () => {
    for (const [role, name] of [
      ["current", "cllCheckpoint"],
      ["prior", "priorCheckpoint"],
    ] as const) {
      const original = parsed(e.bundle, name);
      expect(sighting[role], role).toEqual({
        logId: original.logId,
        keyIdHex: bytesToHex(original.keyId),
        mmrSize: original.mmrSize,
        root: bytesToHex(original.root),
        prevSize: original.prevSize,
        prevRoot: original.prevRoot === null ? null : bytesToHex(original.prevRoot),
      });
    }
    // The current checkpoint has a prior, so it states a prev_root.
    expect(sighting.current?.prevRoot).toMatch(/^[0-9a-f]{64}$/);
    expect(sighting.prior?.mmrSize).toBe(sighting.current?.prevSize);
  });

  it("hold strings and numbers only, every sighting of one shape", () => {
    for (const role of ["current", "prior"] as const) {
      const cp = sighting[role];
      expect(cp, role).toBeDefined();
      for (const v of Object.values(cp ?? {})) expect(v === null || ["string", "number"].includes(typeof v)).toBe(true);
    }
    expect(Object.keys(sighting)).toEqual(["source", "current", "prior", "cosigned", "stamped"]);
    const bare = inputCheckpoints("b.json", { manifest: {} } as unknown as JsonObject, false);
    expect(Object.keys(bare)).toEqual(Object.keys(sighting));
    expect([bare.current, bare.prior, bare.cosigned, bare.stamped]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("keep the key and the log once for every input that names them: 2,000 sightings hold under 550 bytes each", () => {
    // Measured as memory after full collections, never time. Each sighting holds its object, two
    // checkpoints' statements and their roots in hex: about 460 bytes. A copy of the key (and the
    // log id) per input would add about 170; the checkpoints as copied before, about 1,400.
    const names = Array.from({ length: 2000 }, (_, i) => `input-${i}.json`);
    const sight = () => names.map((n) => inputCheckpoints(n, e.bundle, false));
    // Twice first, and dropped: code, memos and the table of verified checkpoints (which grows
    // with as many new ones as a round makes, and keeps its size) settle outside the measure.
    for (let i = 0; i < 2; i++) expect(sight()).toHaveLength(names.length);
    gc();
    const before = oldSpace();
    const held = sight();
    gc();
    const perSighting = (oldSpace() - before) / held.length;
    expect(held.every((h) => h.current?.root === sighting.current?.root)).toBe(true);
    expect(perSighting).toBeLessThan(550);
  });

  it("keep at most 256 shared strings, none of them long, and give each back whole", () => {
    const fresh = `log-${"x".repeat(40)}-kept-once`;
    const count = sharedCount();
    expect(shared(fresh)).toBe(fresh);
    // Kept the first time, found again after.
    expect(sharedCount()).toBe(count + 1);
    expect(shared(fresh)).toBe(fresh);
    expect(sharedCount()).toBe(count + 1);
    // A string that long is copied, not kept: a run's table cannot grow with its inputs' sizes.
    const long = "y".repeat(513);
    const before = sharedCount();
    expect(shared(long)).toBe(long);
    expect(sharedCount()).toBe(before);
    // Past its bound it is emptied, and every string still comes back as it was given.
    for (let i = 0; i < 1000; i++) {
      expect(shared(`s${i}`)).toBe(`s${i}`);
      expect(sharedCount()).toBeLessThanOrEqual(256);
    }
  });

  it("are made only of checkpoints whose signature verifies", () => {
    const original = parsed(e.bundle, "cllCheckpoint");
    const signature = original.signature.slice();
    signature.set([(signature[0] ?? 0) ^ 0x01]);
    const forged: Checkpoint = { ...original, signature };
    counted.verifications = 0;
    expect(verifyCheckpointSignature(forged).ok).toBe(false);
    expect(sighted(forged)).toBeUndefined();
    expect(counted.verifications).toBe(2);
    // A verified checkpoint is known as such: sighting it verifies nothing again.
    const fresh = parsed(e.bundle, "cllCheckpoint");
    expect(verifyCheckpointSignature(fresh).ok).toBe(true);
    counted.verifications = 0;
    expect(sighted(fresh)).toEqual(sighting.current);
    expect(counted.verifications).toBe(0);
  });

  it("are verified once: the comparison of every input does not verify them again", () => {
    const other = inputCheckpoints("b.json", e.bundle, false);
    counted.verifications = 0;
    findEquivocations([sighting, other]);
    expect(counted.verifications).toBe(0);
  });

  it("compare as the checkpoints they copy: two sightings of one input agree, no fork", () => {
    const findings = findEquivocations([sighting, inputCheckpoints("b.json", e.bundle, false)]);
    expect(findings.map((f) => [f.forks.length, f.compared])).toEqual([
      [0, 3],
      [0, 3],
    ]);
  });
});
