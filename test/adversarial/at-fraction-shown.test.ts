/**
 * An --at with a fraction of a second is shown as the caller wrote it (src/keys/judge.ts
 * `timeShown`): the key.window check of a revoked Transparency Service key names that time in its
 * values and must name the same time in its detail, not the second it rounds down to (which reads
 * as an --at exactly at revokedAt).
 */
import { expect, it } from "vitest";
import { TS, WITNESSED, build, run, trustOf, windowOf } from "../keys/harness.js";
import type { ExchangeOptions } from "../../producer/options.js";

const STAMPED: ExchangeOptions = {
  ...WITNESSED,
  continuity: null,
  witnesses: [{ url: TS, treeSize: 7, leafIndex: 4, iat: 1790847060 }],
};
const AT = "2026-10-01T09:00:00.5Z";

it("a revoked service key, --at half a second after revokedAt: the detail names --at as written", () => {
  const e = build(STAMPED);
  const trust = trustOf(e, (t) => {
    const s = t.transparencyServices[0] as { keys: unknown[] };
    s.keys = [{ key: s.keys[0], revokedAt: "2026-10-01T09:00:00Z" }];
  });
  const { input } = run(e, trust, { at: AT });
  const c = windowOf(input, "externalRegistration");
  expect([c.state, c.code, c.values?.trustedTime]).toEqual(["INCONCLUSIVE", "KEY_REVOKED", AT]);
  expect(c.detail).toContain(`--at ${AT}`);
});
