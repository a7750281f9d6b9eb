/**
 * Keys over time (contract §5.1): `revokedAt` says that from that time on anything the key signs
 * may be forged. A compromise is the key's, not one entry's: when the trust file pins one key in two
 * places (the same producer key under two authorities, the same service key under two URLs) and one
 * of them carries `revokedAt`, a signature by that key made at or after the revocation proves
 * nothing, whichever entry the signature is matched to. A relying party that revokes the key where
 * it found the compromise must not be told PASS by the other entry.
 */
import { describe, expect, it } from "vitest";
import { PLAIN, WITNESSED, TS, build, run, trustOf, windowOf } from "../keys/harness.js";
import type { ExchangeOptions } from "../../producer/options.js";

const REVOKED = "2026-10-01T09:00:00Z";

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

describe("a Transparency Service key pinned for two URLs, revoked under the other one", () => {
  const stamped: ExchangeOptions = {
    ...WITNESSED,
    continuity: null,
    witnesses: [{ url: TS, treeSize: 7, leafIndex: 4, iat: 1790847060 }],
  };
  const e = build(stamped);
  const trust = trustOf(e, (t) => {
    const key = (t.transparencyServices[0] as { keys: unknown[] }).keys[0];
    t.transparencyServices.push({
      url: "https://ts-mirror.a2a-evidence.example",
      keys: [{ key, revokedAt: REVOKED }],
      operator: "independent",
    });
  });

  it("does not count the stamp (externalRegistration INCONCLUSIVE, key.window KEY_REVOKED) with --at after the revocation", () => {
    const { input, exitCode } = run(e, trust, { at: "2026-10-01T11:00:00Z" });
    const c = windowOf(input, "externalRegistration");
    expect({ property: input.properties.externalRegistration.state, state: c.state, code: c.code }).toEqual({
      property: "INCONCLUSIVE",
      state: "INCONCLUSIVE",
      code: "KEY_REVOKED",
    });
    expect(exitCode).toBe(3);
  });
});

describe("a Transparency Service key listed twice under one URL, bare and revoked", () => {
  const stamped: ExchangeOptions = {
    ...WITNESSED,
    continuity: null,
    witnesses: [{ url: TS, treeSize: 7, leafIndex: 4, iat: 1790847060 }],
  };
  const e = build(stamped);
  // The producer's own key entries take the strictest window of a key pinned twice; the service's must too.
  const trust = trustOf(e, (t) => {
    const s = t.transparencyServices[0] as { keys: unknown[] };
    s.keys = [s.keys[0], { key: s.keys[0], revokedAt: REVOKED }];
  });

  it("does not count the stamp (externalRegistration INCONCLUSIVE, key.window KEY_REVOKED) with --at after the revocation", () => {
    const { input, exitCode } = run(e, trust, { at: "2026-10-01T11:00:00Z" });
    const c = windowOf(input, "externalRegistration");
    expect({ property: input.properties.externalRegistration.state, state: c.state, code: c.code }).toEqual({
      property: "INCONCLUSIVE",
      state: "INCONCLUSIVE",
      code: "KEY_REVOKED",
    });
    expect(exitCode).toBe(3);
  });
});
