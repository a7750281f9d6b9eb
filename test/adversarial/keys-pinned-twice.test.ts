/**
 * Keys over time (contract §5.1): `revokedAt` says that from that time on anything the key signs
 * may be forged. A compromise is the key's, not one entry's: when the trust file pins one key in two
 * places (the same producer key under two authorities, the same service key under two URLs) and one
 * of them carries `revokedAt`, a signature by that key made at or after the revocation proves
 * nothing, whichever entry the signature is matched to. A relying party that revokes the key where
 * it found the compromise must not be told PASS by the other entry.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/json/value.js";
import {
  CURRENT_COSIGNED,
  PLAIN,
  PRIOR_COSIGNED,
  WITNESSED,
  TS,
  build,
  expectWindow,
  producerWindow,
  run,
  trustOf,
  windowOf,
  type Trust,
} from "../keys/harness.js";
import { ed25519FromSeed, seedFromLabel } from "../../producer/ed25519.js";
import type { ExchangeOptions } from "../../producer/options.js";

const REVOKED = "2026-10-01T09:00:00Z";
/** A capture whose checkpoint an independent Transparency Service stamped (iat 09:31:00Z). */
const STAMPED: ExchangeOptions = {
  ...WITNESSED,
  continuity: null,
  witnesses: [{ url: TS, treeSize: 7, leafIndex: 4, iat: 1790847060 }],
};
const OLD_LABEL = "keys pinned twice: the producer key before the rotation";
const OLD_KEY = ed25519FromSeed(seedFromLabel(OLD_LABEL)).publicKeyHex;
/** The prior checkpoint signed by OLD_KEY, the record and its checkpoint by the exchange's key. */
const rotated = build({ ...WITNESSED, priorCheckpoint: { leafCount: 5, keyLabel: OLD_LABEL } });

describe("a producer key pinned for two authorities, revoked under the other one", () => {
  const plain = build(PLAIN);
  // The payload's authority keeps the bare key; another authority lists the same key, revoked.
  const trust = trustOf(plain, (t) => {
    const key = (t.producers[0] as { keys: unknown[] }).keys[0];
    t.producers.push({ authority: "ledger-agent.example", keys: [{ key, revokedAt: REVOKED, reason: "key copied" }] });
  });

  it("FAILs producerSignature and checkpointSignature with KEY_REVOKED: nothing places the record before the revocation", () => {
    const { input, exitCode } = run(plain, trust);
    const record = windowOf(input, "producerSignature");
    expect({ property: input.properties.producerSignature.state, state: record.state, code: record.code }).toEqual({
      property: "FAIL",
      state: "FAIL",
      code: "KEY_REVOKED",
    });
    const checkpoint = windowOf(input, "checkpointSignature");
    expect({ property: input.properties.checkpointSignature.state, code: checkpoint.code }).toEqual({
      property: "FAIL",
      code: "KEY_REVOKED",
    });
    expect(exitCode).toBe(1);
  });
});

/** With --at after the revocation, the stamp is not counted: externalRegistration INCONCLUSIVE, key.window KEY_REVOKED, exit 3. */
function expectStampNotCounted(e: ReturnType<typeof build>, trust: JsonObject): void {
  const { input, exitCode } = run(e, trust, { at: "2026-10-01T11:00:00Z" });
  const c = windowOf(input, "externalRegistration");
  expect({ property: input.properties.externalRegistration.state, state: c.state, code: c.code }).toEqual({
    property: "INCONCLUSIVE",
    state: "INCONCLUSIVE",
    code: "KEY_REVOKED",
  });
  expect(exitCode).toBe(3);
}

describe("a Transparency Service key pinned for two URLs, revoked under the other one", () => {
  const e = build(STAMPED);
  const trust = trustOf(e, (t) => {
    const key = (t.transparencyServices[0] as { keys: unknown[] }).keys[0];
    t.transparencyServices.push({
      url: "https://ts-mirror.a2a-evidence.example",
      keys: [{ key, revokedAt: REVOKED }],
      operator: "independent",
    });
  });

  it("does not count the stamp (externalRegistration INCONCLUSIVE, key.window KEY_REVOKED) with --at after the revocation", () =>
    expectStampNotCounted(e, trust));
});

describe("a Transparency Service key listed twice under one URL, bare and revoked", () => {
  const e = build(STAMPED);
  // The producer's own key entries take the strictest window of a key pinned twice; the service's must too.
  const trust = trustOf(e, (t) => {
    const s = t.transparencyServices[0] as { keys: unknown[] };
    s.keys = [s.keys[0], { key: s.keys[0], revokedAt: REVOKED }];
  });

  it("does not count the stamp (externalRegistration INCONCLUSIVE, key.window KEY_REVOKED) with --at after the revocation", () =>
    expectStampNotCounted(e, trust));
});

describe("a producer key pinned with a loose window for its authority, revoked under another", () => {
  const plain = build(PLAIN);
  const trust = trustOf(plain, (t) => {
    const p = t.producers[0] as { keys: unknown[] };
    const key = p.keys[0];
    p.keys = [{ key, validUntil: "2027-01-01T00:00:00Z" }];
    t.producers.push({ authority: "ledger-agent.example", keys: [{ key, revokedAt: REVOKED }] });
  });

  it("FAILs producerSignature KEY_REVOKED: the revocation is stricter than the retirement", () => {
    const { input, exitCode } = run(plain, trust);
    expectWindow(input, "producerSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
    expect(windowOf(input, "producerSignature").values?.revokedAt).toBe(REVOKED);
    expect(exitCode).toBe(1);
  });
});

describe("a producer key revoked in another role of the trust file (as a PEAC issuer key)", () => {
  const plain = build(PLAIN);
  const trust = trustOf(plain, (t) => {
    const key = (t.producers[0] as { keys: unknown[] }).keys[0];
    (t as Trust & { peacIssuers?: unknown[] }).peacIssuers = [
      { iss: "https://issuer.example", keys: [{ kid: "k0", key, revokedAt: REVOKED }] },
    ];
  });

  it("FAILs producerSignature and checkpointSignature KEY_REVOKED: a compromise is the key material's", () => {
    const { input, exitCode } = run(plain, trust);
    expectWindow(input, "producerSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
    expectWindow(input, "checkpointSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
    expect(exitCode).toBe(1);
  });
});

describe("the prior checkpoint's key pinned bare for its authority, revoked under another", () => {
  const trust = trustOf(rotated, (t) => {
    (t.producers[0] as { keys: unknown[] }).keys.push(OLD_KEY);
    // Revoked before the witness cosigned the prior checkpoint (09:00:10Z).
    t.producers.push({
      authority: "ledger-agent.example",
      keys: [{ key: OLD_KEY, revokedAt: "2026-10-01T08:00:00Z" }],
    });
  });

  it("FAILs continuity KEY_REVOKED at the prior checkpoint's witnessed time", () => {
    const { input, exitCode } = run(rotated, trust);
    expectWindow(input, "continuity", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: PRIOR_COSIGNED });
    expect(exitCode).toBe(1);
  });
});

describe("a rotation whose new key another authority retired before the old key began", () => {
  /** The rotation's trust file, with the new key pinned also for another authority with `window`. */
  const trustWith = (window: Record<string, string>) =>
    trustOf(rotated, (t) => {
      const p = t.producers[0] as { keys: unknown[] };
      const key = p.keys[0];
      p.keys = [key, { key: OLD_KEY, validFrom: "2026-09-01T00:00:00Z" }];
      t.producers.push({ authority: "ledger-agent.example", keys: [{ key, ...window }] });
    });
  const chainKey = (trust: JsonObject) => {
    const c = run(rotated, trust).input.properties.continuity.checks.find((k) => k.id === "chain.key");
    return [c?.state, c?.code];
  };

  it("is still a succession: that authority's planned life of the key is its own (chain.key PASS)", () => {
    expect(chainKey(trustWith({ validUntil: "2026-08-01T00:00:00Z" }))).toEqual(["PASS", undefined]);
  });

  it("but a revocation of the new key there, before the old key began, breaks it: chain.key INCONCLUSIVE CONTINUITY_KEY_ROTATION", () => {
    expect(chainKey(trustWith({ revokedAt: "2026-08-01T00:00:00Z" }))).toEqual([
      "INCONCLUSIVE",
      "CONTINUITY_KEY_ROTATION",
    ]);
  });
});

describe("a witness key pinned bare for its witness, revoked in another role (as a PEAC issuer key)", () => {
  const e = build(WITNESSED);
  const trust = trustOf(e, (t) => {
    const spec = (t.witnesses?.[0] as { keys: string[] }).keys[0] as string;
    // <name>+<key ID>+base64(0x04 ‖ the raw Ed25519 key); the base64 may hold "+" too.
    const raw = Buffer.from(spec.split("+").slice(2).join("+"), "base64").subarray(1).toString("hex");
    (t as Trust & { peacIssuers?: unknown[] }).peacIssuers = [
      { iss: "https://issuer.example", keys: [{ kid: "k0", key: raw, revokedAt: "2026-10-01T09:20:00Z" }] },
    ];
  });

  it("does not count its cosignatures (key.window INCONCLUSIVE KEY_REVOKED)", () => {
    const { input } = run(e, trust);
    const lines = input.properties.continuity.checks.filter((c) => c.id === "key.window");
    expect(lines.map((c) => [c.state, c.code])).toEqual([
      ["INCONCLUSIVE", "KEY_REVOKED"],
      ["INCONCLUSIVE", "KEY_REVOKED"],
    ]);
    expect(input.properties.continuity.state).toBe("INCONCLUSIVE");
  });
});

describe("honest look-alikes: one key pinned in several places with the same or no window", () => {
  const witnessed = build(WITNESSED);
  const OTHER = "ledger-agent.example";
  /** The producer key of `e` pinned again for another authority, as `entry` makes it. */
  const alsoFor =
    (entry: (key: unknown) => unknown) =>
    (t: Trust): void => {
      const key = (t.producers[0] as { keys: unknown[] }).keys[0];
      t.producers.push({ authority: OTHER, keys: [entry(key)] });
    };
  const keyWindows = (input: ReturnType<typeof run>["input"]) =>
    Object.values(input.properties).flatMap((p) => p.checks.filter((c) => c.id === "key.window"));

  it("a producer key bare under two authorities: no key.window check, exit 0", () => {
    const { input, exitCode } = run(
      witnessed,
      trustOf(
        witnessed,
        alsoFor((key) => key),
      ),
    );
    expect(keyWindows(input)).toEqual([]);
    expect([input.properties.producerSignature.state, input.properties.identityAuthorityBinding.state]).toEqual([
      "PASS",
      "PASS",
    ]);
    expect(exitCode).toBe(0);
  });

  it("a producer key under two authorities with the same revokedAt, witnessed before it: as when pinned once", () => {
    const revoked = { revokedAt: "2026-10-01T10:00:00Z" };
    const once = run(witnessed, trustOf(witnessed, producerWindow(revoked)));
    const twice = run(
      witnessed,
      trustOf(witnessed, (t) => {
        producerWindow(revoked)(t);
        alsoFor((key) => key)(t);
      }),
    );
    expectWindow(twice.input, "producerSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED });
    expect(keyWindows(twice.input)).toEqual(keyWindows(once.input));
    expect([twice.exitCode, once.exitCode]).toEqual([0, 0]);
  });

  it("a rotation with touching windows, the new key also pinned bare elsewhere: the old key's end is not the new key's", () => {
    const HANDOVER = "2026-10-01T09:15:00Z";
    const trust = trustOf(rotated, (t) => {
      const p = t.producers[0] as { keys: unknown[] };
      const key = p.keys[0];
      p.keys = [
        { key, validFrom: HANDOVER },
        { key: OLD_KEY, validUntil: HANDOVER },
      ];
      t.producers.push({ authority: OTHER, keys: [key, { key: OLD_KEY, validUntil: HANDOVER }] });
    });
    const { input, exitCode } = run(rotated, trust);
    expectWindow(input, "producerSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED });
    expectWindow(input, "checkpointSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED });
    expectWindow(input, "continuity", "PASS", { state: "PASS", time: PRIOR_COSIGNED }, "prior checkpoint");
    expect(input.properties.continuity.checks.find((c) => c.id === "chain.key")?.state).toBe("PASS");
    expect(exitCode).toBe(0);
  });

  describe("a Transparency Service key", () => {
    const e = build(STAMPED);
    const MIRROR = "https://ts-mirror.a2a-evidence.example";
    const mirrored = (entry: (key: unknown) => unknown) =>
      trustOf(e, (t) => {
        const s = t.transparencyServices[0] as { keys: unknown[] };
        const key = s.keys[0];
        s.keys = [entry(key)];
        t.transparencyServices.push({ url: MIRROR, keys: [entry(key)], operator: "independent" });
      });

    it("bare under two URLs: the stamp counts, no key.window check", () => {
      const { input, exitCode } = run(
        e,
        mirrored((key) => key),
        { at: "2026-10-01T11:00:00Z" },
      );
      expect(input.properties.externalRegistration.state).toBe("PASS");
      expect(keyWindows(input)).toEqual([]);
      expect(exitCode).toBe(0);
    });

    it("under two URLs with the same revokedAt, --at before it: counted", () => {
      const { input } = run(
        e,
        mirrored((key) => ({ key, revokedAt: "2026-10-01T09:40:00Z" })),
        { at: "2026-10-01T09:35:00Z" },
      );
      expectWindow(input, "externalRegistration", "PASS", { state: "PASS", time: "2026-10-01T09:31:00Z" });
    });

    it("listed twice under one URL with the same window: as when listed once", () => {
      const window = { validUntil: "2026-10-02T00:00:00Z" };
      const once = trustOf(e, (t) => {
        const s = t.transparencyServices[0] as { keys: unknown[] };
        s.keys = [{ key: s.keys[0], ...window }];
      });
      const twice = trustOf(e, (t) => {
        const s = t.transparencyServices[0] as { keys: unknown[] };
        s.keys = [
          { key: s.keys[0], ...window },
          { key: s.keys[0], ...window },
        ];
      });
      const a = run(e, once, { at: "2026-10-01T11:00:00Z" });
      const b = run(e, twice, { at: "2026-10-01T11:00:00Z" });
      expectWindow(b.input, "externalRegistration", "PASS", { state: "PASS", time: "2026-10-01T09:31:00Z" });
      expect(keyWindows(b.input)).toEqual(keyWindows(a.input));
    });
  });
});

describe("a Transparency Service key revoked under another URL lends no time", () => {
  const stamped = build({ ...PLAIN, witnesses: [{ url: TS, treeSize: 7, leafIndex: 4, iat: 1790847060 }] });
  const trust = trustOf(stamped, (t) => {
    producerWindow({ revokedAt: "2026-10-01T10:00:00Z" })(t);
    const key = (t.transparencyServices[0] as { keys: unknown[] }).keys[0];
    t.transparencyServices.push({
      url: "https://ts-mirror.a2a-evidence.example",
      keys: [{ key, revokedAt: "2026-10-01T09:20:00Z" }],
      operator: "independent",
    });
  });

  it("its receipt's iat does not place the record before the producer key's revocation: KEY_REVOKED", () => {
    const { input, exitCode } = run(stamped, trust);
    expectWindow(input, "producerSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: "none" });
    expect(exitCode).toBe(1);
  });
});
