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
