/**
 * Keys over time beyond the producer's own signature (contract §5.1): a chain across a producer
 * key rotation, a revoked key on the prior checkpoint, a revoked witness key, a revoked
 * Transparency Service key.
 */
import { describe, expect, it } from "vitest";
import { ed25519FromSeed, seedFromLabel } from "../../producer/ed25519.js";
import {
  CURRENT_COSIGNED,
  PRIOR_COSIGNED,
  TS,
  WITNESSED,
  build,
  expectWindow,
  run,
  trustOf,
  windowOf,
  type Trust,
} from "./harness.js";

const OLD_LABEL = "keys: the producer key before the rotation";
const OLD_KEY = ed25519FromSeed(seedFromLabel(OLD_LABEL)).publicKeyHex;
/** The prior checkpoint signed by the old key, this record and its checkpoint by the new one. */
const rotated = build({ ...WITNESSED, priorCheckpoint: { leafCount: 5, keyLabel: OLD_LABEL } });
const NEW_KEY = (rotated.trust.producers as unknown as { keys: string[] }[])[0]?.keys[0] as string;

function pinOld(window: Record<string, string> = {}, current: Record<string, string> = {}): (t: Trust) => void {
  return (t) => {
    const p = t.producers[0] as { keys: unknown[] };
    p.keys = [
      Object.keys(current).length > 0 ? { key: NEW_KEY, ...current } : NEW_KEY,
      Object.keys(window).length > 0 ? { key: OLD_KEY, ...window } : OLD_KEY,
    ];
  };
}

describe("succession: a continuity chain across a producer key rotation", () => {
  it("is INCONCLUSIVE when only the new key is pinned (as before)", () => {
    const { input } = run(rotated, trustOf(rotated));
    const key = input.properties.continuity.checks.find((c) => c.id === "chain.key");
    expect([input.properties.continuity.state, key?.state, key?.code]).toEqual([
      "INCONCLUSIVE",
      "INCONCLUSIVE",
      "CONTINUITY_KEY_ROTATION",
    ]);
  });

  it("PASSes when both keys are pinned for the authority, and names both", () => {
    const { input, exitCode } = run(rotated, trustOf(rotated, pinOld()));
    const key = input.properties.continuity.checks.find((c) => c.id === "chain.key");
    expect([input.properties.continuity.state, key?.state]).toEqual(["PASS", "PASS"]);
    expect(key?.values).toMatchObject({ priorKey: OLD_KEY, key: NEW_KEY });
    expect(key?.detail).toContain(OLD_KEY);
    expect(key?.detail).toContain(NEW_KEY);
    expect(exitCode).toBe(0);
  });

  it("PASSes with windows that hand over at the rotation, each checkpoint judged at its own witnessed time", () => {
    const { input } = run(
      rotated,
      trustOf(rotated, pinOld({ validUntil: "2026-10-01T09:15:00Z" }, { validFrom: "2026-10-01T09:15:00Z" })),
    );
    expect(input.properties.continuity.state).toBe("PASS");
    expectWindow(input, "continuity", "PASS", { state: "PASS", time: PRIOR_COSIGNED, source: /prior checkpoint/ });
    expectWindow(input, "checkpointSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED });
    expectWindow(input, "producerSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED });
  });

  it("is INCONCLUSIVE when the new key's window ends before the old key's begins", () => {
    const { input } = run(
      rotated,
      trustOf(rotated, pinOld({ validFrom: "2026-09-01T00:00:00Z" }, { validUntil: "2026-08-01T00:00:00Z" })),
    );
    const key = input.properties.continuity.checks.find((c) => c.id === "chain.key");
    expect([key?.state, key?.code]).toEqual(["INCONCLUSIVE", "CONTINUITY_KEY_ROTATION"]);
  });

  it("FAILs continuity KEY_REVOKED when the prior checkpoint's key was revoked before its first witness", () => {
    const { input, exitCode } = run(rotated, trustOf(rotated, pinOld({ revokedAt: "2026-10-01T08:00:00Z" })));
    expectWindow(input, "continuity", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: PRIOR_COSIGNED });
    expect(exitCode).toBe(1);
  });

  it("the old key revoked after the prior checkpoint was witnessed is a clean rotation", () => {
    const { input } = run(rotated, trustOf(rotated, pinOld({ revokedAt: "2026-10-01T09:10:00Z" })));
    expectWindow(input, "continuity", "PASS", { state: "PASS", time: PRIOR_COSIGNED });
  });
});

describe("a revoked witness key", () => {
  const revokeWitness = (revokedAt: string) => (t: Trust) => {
    const w = t.witnesses?.[0] as { keys: unknown[] };
    w.keys = [{ key: w.keys[0], revokedAt }];
  };

  it("is not counted (INCONCLUSIVE KEY_REVOKED, never FAIL)", () => {
    const e = build(WITNESSED);
    const { input, exitCode } = run(e, trustOf(e, revokeWitness("2026-10-01T09:20:00Z")));
    const lines = input.properties.continuity.checks.filter((c) => c.id === "key.window");
    expect(lines.map((c) => [c.state, c.code])).toEqual([
      ["INCONCLUSIVE", "KEY_REVOKED"],
      ["INCONCLUSIVE", "KEY_REVOKED"],
    ]);
    expect(input.properties.continuity.state).toBe("INCONCLUSIVE");
    expect(input.properties.continuity.checks.find((c) => c.id === "witness.quorum")?.state).toBe("INCONCLUSIVE");
    expect(exitCode).toBe(0);
  });

  it("lends no time: a revoked producer key is then unproven", () => {
    const e = build(WITNESSED);
    const { input } = run(
      e,
      trustOf(e, (t) => {
        revokeWitness("2026-10-01T09:20:00Z")(t);
        const p = t.producers[0] as { keys: unknown[] };
        p.keys[0] = { key: p.keys[0], revokedAt: "2026-10-01T10:00:00Z" };
      }),
    );
    expectWindow(input, "producerSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
    expectWindow(input, "continuity", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" }, "prior checkpoint");
  });

  it("a witness key revoked later than --at still counts", () => {
    const e = build(WITNESSED);
    const { input } = run(e, trustOf(e, revokeWitness("2026-10-02T00:00:00Z")), { at: "2026-10-01T09:31:00Z" });
    expect(input.properties.continuity.state).toBe("PASS");
    const windows = input.properties.continuity.checks.filter((c) => c.id === "key.window");
    expect(windows.map((c) => c.state)).toEqual(["PASS", "PASS"]);
  });
});

describe("a revoked Transparency Service key", () => {
  const stamped = { ...WITNESSED, witnesses: [{ url: TS, treeSize: 7, leafIndex: 4, iat: 1790847060 }] };
  const e = build(stamped);
  const revokeService = (t: Trust) => {
    const s = t.transparencyServices[0] as { keys: unknown[] };
    s.keys = [{ key: s.keys[0], revokedAt: "2026-10-01T09:40:00Z" }];
  };

  it("with --at after the revocation: the stamp is not counted (INCONCLUSIVE KEY_REVOKED), whatever iat it claims", () => {
    const { input, exitCode } = run(e, trustOf(e, revokeService), { at: "2026-10-01T11:00:00Z" });
    const c = expectWindow(input, "externalRegistration", "INCONCLUSIVE", {
      state: "INCONCLUSIVE",
      code: "KEY_REVOKED",
      time: "2026-10-01T09:31:00Z",
    });
    expect(c.detail).toMatch(/not counted/);
    expect(input.properties.externalRegistration.checks.find((x) => x.id === "registration.verified")?.state).toBe(
      "INCONCLUSIVE",
    );
    expect(exitCode).toBe(3);
  });

  it("with --at before the revocation: counted", () => {
    const { input } = run(e, trustOf(e, revokeService), { at: "2026-10-01T09:35:00Z" });
    expectWindow(input, "externalRegistration", "PASS", { state: "PASS", time: "2026-10-01T09:31:00Z" });
  });

  it("without --at: not counted, and its iat is no trusted time for the record", () => {
    const plain = build({ ...stamped, continuity: null });
    const { input } = run(
      plain,
      trustOf(plain, (t) => {
        revokeService(t);
        const p = t.producers[0] as { keys: unknown[] };
        p.keys[0] = { key: p.keys[0], revokedAt: "2026-10-01T10:00:00Z" };
      }),
    );
    expectWindow(input, "externalRegistration", "INCONCLUSIVE", {
      state: "INCONCLUSIVE",
      code: "KEY_REVOKED",
      time: "2026-10-01T09:31:00Z",
    });
    expectWindow(input, "producerSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
  });
});

it("the record's own window check names the key it judged", () => {
  const { input } = run(rotated, trustOf(rotated, pinOld({}, { revokedAt: "2026-10-01T10:00:00Z" })));
  expect(windowOf(input, "producerSignature").values?.key).toBe(NEW_KEY);
});
