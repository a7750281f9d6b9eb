/**
 * The producer's signatures judged at a trusted time (contract §5.1): the record's envelope
 * (producerSignature) and the checkpoint's (checkpointSignature).
 */
import { describe, expect, it } from "vitest";
import {
  CURRENT_COSIGNED,
  PLAIN,
  TS,
  WITNESSED,
  build,
  expectWindow,
  producerWindow,
  run,
  trustOf,
  W1,
} from "./harness.js";
import { CllWitness, cllNote, leavesForSize } from "../../producer/witness.js";
import { ed25519FromSeed, seedFromLabel } from "../../producer/ed25519.js";
import type { TaskState } from "../../producer/constants.js";
import type { ExchangeOptions } from "../../producer/options.js";
import { agent, user } from "../helpers/messages.js";

const witnessed = build(WITNESSED);
const plain = build(PLAIN);
const WITNESS_SOURCE = /cosignature of independent witness .* over the current checkpoint .*includes the record/;

describe("a revoked producer key", () => {
  const revoked = producerWindow({ revokedAt: "2026-10-01T10:00:00Z", reason: "signing host compromised" });

  it("PASSes for a record an independent witness cosigned before the revocation", () => {
    const { input, exitCode } = run(witnessed, trustOf(witnessed, revoked));
    expectWindow(input, "producerSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED, source: WITNESS_SOURCE });
    expectWindow(input, "checkpointSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED });
    expect(input.properties.continuity.state).toBe("PASS");
    expect(exitCode).toBe(0);
  });

  it("FAILs KEY_REVOKED for the same record with no witness: nothing shows it was signed before", () => {
    const { input, exitCode } = run(plain, trustOf(plain, revoked));
    expectWindow(input, "producerSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
    expectWindow(input, "checkpointSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
    expect(exitCode).toBe(1);
  });

  it("FAILs when the witness cosigned only after the revocation", () => {
    const after = producerWindow({ revokedAt: "2026-10-01T09:30:05Z" });
    const { input, exitCode } = run(witnessed, trustOf(witnessed, after));
    expectWindow(input, "producerSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: CURRENT_COSIGNED });
    expect(exitCode).toBe(1);
  });

  it("is not rescued by the producer's own times (sealTime, the capsule's and checkpoint's timestamps)", () => {
    // Every time the producer states is hours before the revocation; none of them is proof.
    const early = build({
      ...PLAIN,
      sealTime: "2026-10-01T08:00:00.000000+00:00",
      capsuleTimestamp: "2026-10-01T08:00:00.000000Z",
      checkpointTimestamp: "2026-10-01T08:00:01.000000Z",
      priorCheckpoint: { leafCount: 5, timestamp: "2026-10-01T07:00:00.000000Z" },
    });
    const { input, exitCode } = run(early, trustOf(early, producerWindow({ revokedAt: "2026-10-01T09:00:00Z" })));
    const c = expectWindow(input, "producerSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
    expect(c.values?.timeSource).toBeUndefined();
    expect(exitCode).toBe(1);
  });

  it("PASSes when --at places the verification before the revocation", () => {
    const { input } = run(plain, trustOf(plain, revoked), { at: "2026-10-01T09:45:00Z" });
    expectWindow(input, "producerSignature", "PASS", { state: "PASS", time: "2026-10-01T09:45:00Z", source: /^--at$/ });
  });

  it("an earlier witness time is used over a later --at", () => {
    const { input } = run(witnessed, trustOf(witnessed, revoked), { at: "2026-10-01T09:59:00Z" });
    expectWindow(input, "producerSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED, source: WITNESS_SOURCE });
  });
});

describe("a retired producer key (validUntil)", () => {
  const retired = producerWindow({ validUntil: "2026-10-01T12:00:00Z" });

  it("PASSes with proof of time before validUntil", () => {
    const { input } = run(witnessed, trustOf(witnessed, retired));
    expectWindow(input, "producerSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED, source: WITNESS_SOURCE });
  });

  it("is INCONCLUSIVE KEY_VALIDITY_UNPROVEN without proof of time", () => {
    const { input, exitCode } = run(plain, trustOf(plain, retired));
    expectWindow(input, "producerSignature", "INCONCLUSIVE", {
      state: "INCONCLUSIVE",
      code: "KEY_VALIDITY_UNPROVEN",
      time: "none",
    });
    expect(exitCode).toBe(3);
  });

  it("is INCONCLUSIVE when the only time is after validUntil", () => {
    const { input } = run(plain, trustOf(plain, retired), { at: "2026-10-02T00:00:00Z" });
    expectWindow(input, "producerSignature", "INCONCLUSIVE", {
      state: "INCONCLUSIVE",
      code: "KEY_VALIDITY_UNPROVEN",
      time: "2026-10-02T00:00:00Z",
    });
  });
});

describe("a producer key used before its validFrom", () => {
  it("FAILs KEY_NOT_YET_VALID when the record provably existed before the key was valid", () => {
    const { input, exitCode } = run(
      witnessed,
      trustOf(witnessed, producerWindow({ validFrom: "2026-10-01T10:00:00Z" })),
    );
    expectWindow(input, "producerSignature", "FAIL", {
      state: "FAIL",
      code: "KEY_NOT_YET_VALID",
      time: CURRENT_COSIGNED,
    });
    expect(exitCode).toBe(1);
  });

  it("holds when the key was valid by then, and with no time at all", () => {
    const valid = producerWindow({ validFrom: "2026-10-01T09:00:00Z" });
    expectWindow(run(witnessed, trustOf(witnessed, valid)).input, "producerSignature", "PASS", {
      state: "PASS",
      time: CURRENT_COSIGNED,
    });
    const late = producerWindow({ validFrom: "2026-10-01T10:00:00Z" });
    expectWindow(run(plain, trustOf(plain, late)).input, "producerSignature", "PASS", { state: "PASS", time: "none" });
  });
});

describe("a Transparency Service's signed iat as trusted time", () => {
  const stamped = build({ ...PLAIN, witnesses: [{ url: TS, treeSize: 7, leafIndex: 4, iat: 1790847060 }] });
  const IAT = "2026-10-01T09:31:00Z";
  const revoked = producerWindow({ revokedAt: "2026-10-01T10:00:00Z" });

  it("an independent service's iat over the record's checkpoint places the record before the revocation", () => {
    const { input } = run(stamped, trustOf(stamped, revoked));
    expectWindow(input, "producerSignature", "PASS", {
      state: "PASS",
      time: IAT,
      source: /iat of the receipt from independent Transparency Service https:\/\/ts\.a2a-evidence\.example/,
    });
    expect(input.properties.externalRegistration.state).toBe("PASS");
  });

  it("a producer-operated service's iat is not a trusted time", () => {
    const { input } = run(
      stamped,
      trustOf(stamped, (t) => {
        revoked(t);
        (t.transparencyServices[0] as { operator: string }).operator = "producer";
      }),
    );
    expectWindow(input, "producerSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
  });
});

describe("a trust file without windows", () => {
  it("adds no key.window check anywhere", () => {
    const { input } = run(witnessed, trustOf(witnessed));
    for (const p of Object.values(input.properties)) expect(p.checks.some((c) => c.id === "key.window")).toBe(false);
  });
});

describe("a witness that equivocated in the run vouches for no time (contract §9.40, §5.1)", () => {
  const revoked = producerWindow({ revokedAt: "2026-10-01T10:00:00Z", reason: "signing host compromised" });

  /** The witness's own key (same seed as the producer's witness) signing the current size with another root. */
  function forkedFile(e: ReturnType<typeof build>): string {
    const cp = e.bundle.manifest as { cllCheckpoint: { log_id: string; mmr_size: unknown } };
    const leaves = leavesForSize(Number(String(cp.cllCheckpoint.mmr_size))) as number;
    const note = cllNote(cp.cllCheckpoint.log_id, leaves, new Uint8Array(32).fill(0x5a));
    const witness = new CllWitness(W1, ed25519FromSeed(seedFromLabel(`witness ${W1}`)), new Map());
    return JSON.stringify([{ type: "c2sp-cosignature/v1", note, lines: [witness.cosign(note, 1_790_000_000n)] }]);
  }

  it("a revoked key is not rescued by the cosignature time of a witness that also cosigned a fork: KEY_REVOKED", () => {
    const { input, exitCode } = run(witnessed, trustOf(witnessed, revoked), { cosignatures: forkedFile(witnessed) });
    expectWindow(input, "producerSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
    expect(exitCode).toBe(1);
  });

  it("the honest look-alike, the same witness with no fork in the run, still PASSes", () => {
    const { input, exitCode } = run(witnessed, trustOf(witnessed, revoked));
    expectWindow(input, "producerSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED, source: WITNESS_SOURCE });
    expect(exitCode).toBe(0);
  });
});

describe("the record is placed at its checkpoint's time by its own leaf (contract §5.1)", () => {
  const revoked = producerWindow({ revokedAt: "2026-10-01T10:00:00Z" });
  const W: TaskState = "TASK_STATE_WORKING";
  const IR: TaskState = "TASK_STATE_INPUT_REQUIRED";
  const paused = (interim: ExchangeOptions["interim"]): ExchangeOptions => ({
    ...WITNESSED,
    transcript: [
      user("keys pause 0", "Transfer 250 EUR to account 42."),
      agent("keys pause 1", "Which currency account?"),
      { transition: { from: W, to: IR } },
      user("keys pause 2", "The EUR one."),
      { transition: { from: IR, to: W } },
      agent("keys pause 3", "Transfer 42-0007 booked."),
    ],
    interim,
  });

  // The interim record's own checkpoint is cosigned by no one: its signature by the revoked key
  // FAILs producerSignature (interim.signature) either way; the terminal record's is judged apart.
  const interimFailed = (input: ReturnType<typeof run>["input"]) =>
    input.properties.producerSignature.checks.find((c) => c.id === "interim.signature")?.state;

  it("with a supplied interim record that is a whole record, the witness's time", () => {
    const e = build(paused([{ at: 2 }]));
    const { input, exitCode } = run(e, trustOf(e, revoked));
    expect(input.properties.localInclusion.state).toBe("PASS");
    expectWindow(input, "producerSignature", "FAIL", { state: "PASS", time: CURRENT_COSIGNED, source: WITNESS_SOURCE });
    expect(interimFailed(input)).toBe("FAIL");
    expect(exitCode).toBe(1);
  });

  it("an interim record at a later leaf FAILs localInclusion, and takes nothing from the record's own time", () => {
    const e = build(paused([{ at: 2, leaf: "after" }]));
    const { input, exitCode } = run(e, trustOf(e, revoked));
    const inclusion = input.properties.localInclusion;
    expect(inclusion.state).toBe("FAIL");
    expect(inclusion.checks.filter((c) => c.id !== "interim.inclusion").map((c) => `${c.id} ${c.state}`)).toEqual([
      "inclusion.proof PASS",
      "inclusion.verify PASS",
      "interim.log FAIL",
    ]);
    expectWindow(input, "producerSignature", "FAIL", { state: "PASS", time: CURRENT_COSIGNED, source: WITNESS_SOURCE });
    expect(interimFailed(input)).toBe("FAIL");
    expect(exitCode).toBe(1);
  });
});
