/**
 * Keys over time (contract §5.1, §8): `at` is the caller's own assertion of when verification
 * happens, and the library takes it as the CLI's `--at` does. The CLI refuses a time that is no
 * RFC 3339 date-time (exit 2); verify() must not quietly drop it instead: without `at` a
 * `validFrom` bound holds and the time rules do not run, so a typo in the time would turn the
 * FAIL the caller's time gives into a PASS (a typo must not fail open, as in the trust file).
 */
import { expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { PLAIN, build, producerWindow, run, trustOf } from "../keys/harness.js";

const plain = build(PLAIN);
const trust = trustOf(plain, producerWindow({ validFrom: "2026-10-01T12:00:00Z" }));

it("with a well-formed time before validFrom: producerSignature FAILs KEY_NOT_YET_VALID, exit 1", () => {
  const { input, exitCode } = run(plain, trust, { at: "2026-10-01T09:45:00Z" });
  const c = input.properties.producerSignature.checks.find((k) => k.id === "key.window");
  expect({ state: c?.state, code: c?.code, exitCode }).toEqual({
    state: "FAIL",
    code: "KEY_NOT_YET_VALID",
    exitCode: 1,
  });
});

for (const at of ["2026-10-01 09:45:00Z", "2026-10-01T09:45:00", "yesterday"]) {
  it(`a time that is no RFC 3339 date-time (${JSON.stringify(at)}) is refused, exit 2, as the CLI refuses it`, () => {
    const report = verify({ inputs: [{ source: "test", data: plain.input }], trust, at });
    expect(report.policy.exitCode).toBe(2);
  });
}
