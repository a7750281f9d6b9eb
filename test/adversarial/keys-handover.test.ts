/**
 * Keys over time (contract §5.1) across trust-file entries. `validFrom` / `validUntil` describe a
 * planned rotation — when an entry began or stopped trusting a key — and windows that touch at the
 * rotation instant are a clean hand-over; only `revokedAt` says that anything the key signs may be
 * forged. One key handed over from one authority to another (a producer renamed its authority and
 * kept its key) is honest: a record the old authority signed while its entry was valid must not
 * FAIL because the new authority's entry starts later.
 */
import { expect, it } from "vitest";
import { CURRENT_COSIGNED, WITNESSED, build, expectWindow, run, trustOf } from "../keys/harness.js";

const HANDOVER = "2026-10-01T12:00:00Z";
const witnessed = build(WITNESSED);

it("a key the payload's authority pins until the hand-over, another authority from it: a record witnessed before it PASSes", () => {
  const trust = trustOf(witnessed, (t) => {
    const p = t.producers[0] as { keys: unknown[] };
    const key = p.keys[0];
    p.keys[0] = { key, validUntil: HANDOVER };
    t.producers.push({ authority: "renamed-agent.example", keys: [{ key, validFrom: HANDOVER }] });
  });
  const { input, exitCode } = run(witnessed, trust);
  // The record existed at 09:30:10Z, inside the window its own authority gives the key: no KEY_NOT_YET_VALID.
  expectWindow(input, "producerSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED });
  expectWindow(input, "checkpointSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED });
  expect(exitCode).toBe(0);
});

it("(control) the same key revoked under the other authority before the record: FAIL KEY_REVOKED stays", () => {
  const trust = trustOf(witnessed, (t) => {
    const p = t.producers[0] as { keys: unknown[] };
    const key = p.keys[0];
    p.keys[0] = { key, validUntil: HANDOVER };
    t.producers.push({ authority: "renamed-agent.example", keys: [{ key, revokedAt: "2026-10-01T09:00:00Z" }] });
  });
  const { input, exitCode } = run(witnessed, trust);
  expectWindow(input, "producerSignature", "FAIL", { state: "FAIL", code: "KEY_REVOKED", time: CURRENT_COSIGNED });
  expect(exitCode).toBe(1);
});
