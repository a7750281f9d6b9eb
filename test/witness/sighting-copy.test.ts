/**
 * What a run holds per input until every input is compared: its sighting. The checkpoints in it
 * are copies of their signed statements, out of the input (so no view keeps the input alive), and
 * their byte strings share one small buffer per checkpoint (a buffer of its own for each costs
 * about half a kilobyte, ten per input). Compared with the checkpoints as parsed from the input.
 */
import { describe, expect, it, vi } from "vitest";
import { inputCheckpoints } from "../../src/properties/continuity/cross-input.js";
import {
  parseCheckpoint,
  sameVerification,
  verifyCheckpointSignature,
  type Checkpoint,
} from "../../src/log/checkpoint.js";
import type * as Ed25519 from "../../src/crypto/ed25519.js";
import { member, type JsonObject } from "../../src/json/value.js";
import { findEquivocations } from "../../src/witness/equivocation.js";
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

const BYTE_FIELDS = ["root", "prevRoot", "keyId", "signature", "digest"] as const;

function parsed(bundle: JsonObject, name: string): Checkpoint {
  const r = parseCheckpoint(member(member(bundle, "manifest") as JsonObject, name) as JsonObject, `manifest.${name}`);
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

describe("a sighting's checkpoints", () => {
  const e = capture();
  const sighting = inputCheckpoints("a.json", e.bundle, false);

  it("state what the input's checkpoints state, byte for byte", () => {
    for (const [role, name] of [
      ["current", "cllCheckpoint"],
      ["prior", "priorCheckpoint"],
    ] as const) {
      const copy = sighting[role];
      const original = parsed(e.bundle, name);
      expect(copy, role).toBeDefined();
      if (!copy) continue;
      expect([copy.logId, copy.mmrSize, copy.prevSize, copy.digestHex, copy.path]).toEqual([
        original.logId,
        original.mmrSize,
        original.prevSize,
        original.digestHex,
        original.path,
      ]);
      for (const f of BYTE_FIELDS) expect(copy[f], `${role}.${f}`).toEqual(original[f]);
    }
    // The current checkpoint has a prior, so its prev_root is bytes, not null.
    expect(sighting.current?.prevRoot).toBeInstanceOf(Uint8Array);
  });

  it("keep their byte strings in one buffer of their own, not views of the input", () => {
    for (const role of ["current", "prior"] as const) {
      const copy = sighting[role] as Checkpoint;
      const fields = BYTE_FIELDS.map((f) => copy[f]).filter((b): b is Uint8Array => b !== null);
      const buffers = new Set(fields.map((b) => b.buffer));
      expect(buffers.size, role).toBe(1);
      const total = fields.reduce((n, b) => n + b.length, 0);
      expect(fields[0]?.buffer.byteLength, role).toBe(total);
      // Writing one field's view leaves the others as they were: the views do not overlap.
      const before = fields.map((b) => Array.from(b));
      copy.root.set([(copy.root[0] ?? 0) ^ 0xff]);
      expect(fields.slice(1).map((b) => Array.from(b))).toEqual(before.slice(1));
      copy.root.set([(copy.root[0] ?? 0) ^ 0xff]);
    }
  });

  it("are verified once: the comparison of every input does not verify them again", () => {
    const other = inputCheckpoints("b.json", e.bundle, false);
    counted.verifications = 0;
    findEquivocations([sighting, other]);
    expect(counted.verifications).toBe(0);
  });

  it("a checkpoint whose signature fails stays failed, and a copy of an unverified one is verified itself", () => {
    const original = parsed(e.bundle, "cllCheckpoint");
    const signature = original.signature.slice();
    signature.set([(signature[0] ?? 0) ^ 0x01]);
    const forged = { ...original, signature };
    counted.verifications = 0;
    expect(verifyCheckpointSignature(forged).ok).toBe(false);
    expect(verifyCheckpointSignature(forged).ok).toBe(false);
    expect(counted.verifications).toBe(2);
    // Marked only through a verified original: this copy's forged signature is still checked.
    expect(verifyCheckpointSignature(sameVerification(forged, { ...forged })).ok).toBe(false);
    const fresh = parsed(e.bundle, "cllCheckpoint");
    expect(verifyCheckpointSignature(sameVerification(fresh, { ...fresh })).ok).toBe(true);
  });

  it("compare as the checkpoints they copy: two sightings of one input agree, no fork", () => {
    const findings = findEquivocations([sighting, inputCheckpoints("b.json", e.bundle, false)]);
    expect(findings.map((f) => [f.forks.length, f.compared])).toEqual([
      [0, 3],
      [0, 3],
    ]);
  });
});
