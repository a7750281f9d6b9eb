/**
 * Keys over time (contract §5.1), at the exact edge of a window: `--at T` says whatever exists was
 * signed no later than T, and a key with `validUntil` PASSes only when E ≤ validUntil. A `--at`
 * with a fraction of a second after `validUntil` is after it: reading it as its whole second
 * (rounded down) puts it at `validUntil` and lets a signature the caller's own time does not place
 * inside the window PASS. Rounding down is safe for the lower bounds (validFrom, revokedAt), never
 * for this upper one.
 */
import { expect, it } from "vitest";
import { PLAIN, build, expectWindow, producerWindow, run, trustOf } from "../keys/harness.js";

const plain = build(PLAIN);
const retired = trustOf(plain, producerWindow({ validUntil: "2026-10-01T12:00:00Z" }));

it("--at exactly at validUntil: the window holds (PASS)", () => {
  const { input } = run(plain, retired, { at: "2026-10-01T12:00:00Z" });
  expectWindow(input, "producerSignature", "PASS", { state: "PASS", time: "2026-10-01T12:00:00Z" });
});

it("--at half a second after validUntil: INCONCLUSIVE KEY_VALIDITY_UNPROVEN, not PASS", () => {
  const { input, exitCode } = run(plain, retired, { at: "2026-10-01T12:00:00.5Z" });
  const c = input.properties.producerSignature.checks.find((k) => k.id === "key.window");
  expect({ property: input.properties.producerSignature.state, state: c?.state, code: c?.code, exitCode }).toEqual({
    property: "INCONCLUSIVE",
    state: "INCONCLUSIVE",
    code: "KEY_VALIDITY_UNPROVEN",
    exitCode: 3,
  });
});

// The honest look-alikes: a fraction never moves a time across a whole-second bound it is before,
// and the report shows the time as the caller wrote it.
const revoked = trustOf(plain, producerWindow({ revokedAt: "2026-10-01T12:00:00Z" }));
const future = trustOf(plain, producerWindow({ validFrom: "2026-10-01T12:00:00Z" }));

it("--at half a second before validUntil: PASS, judged at the time as written", () => {
  const { input, exitCode } = run(plain, retired, { at: "2026-10-01T11:59:59.5Z" });
  expectWindow(input, "producerSignature", "PASS", { state: "PASS", time: "2026-10-01T11:59:59.5Z", source: /--at/ });
  expect(exitCode).toBe(0);
});

it("--at at validUntil with a fraction of zeros: the same time as without it, PASS", () => {
  const { input } = run(plain, retired, { at: "2026-10-01T12:00:00.000Z" });
  expectWindow(input, "producerSignature", "PASS", { state: "PASS", time: "2026-10-01T12:00:00Z" });
});

it("--at half a second before revokedAt: signed before the compromise, PASS; half a second after: FAIL", () => {
  const before = run(plain, revoked, { at: "2026-10-01T11:59:59.5Z" });
  expectWindow(before.input, "producerSignature", "PASS", { state: "PASS", time: "2026-10-01T11:59:59.5Z" });
  const after = run(plain, revoked, { at: "2026-10-01T12:00:00.5Z" });
  expectWindow(after.input, "producerSignature", "FAIL", {
    state: "FAIL",
    code: "KEY_REVOKED",
    time: "2026-10-01T12:00:00.5Z",
  });
  expect(after.exitCode).toBe(1);
});

it("validFrom: half a second before it FAILs KEY_NOT_YET_VALID; half a second after it holds", () => {
  const early = run(plain, future, { at: "2026-10-01T11:59:59.5Z" });
  expectWindow(early.input, "producerSignature", "FAIL", {
    state: "FAIL",
    code: "KEY_NOT_YET_VALID",
    time: "2026-10-01T11:59:59.5Z",
  });
  const late = run(plain, future, { at: "2026-10-01T12:00:00.5Z" });
  expectWindow(late.input, "producerSignature", "PASS", { state: "PASS", time: "2026-10-01T12:00:00.5Z" });
});
