/**
 * With key windows, continuity and the trusted time read the same cosignature lines: each line is
 * verified once per input, and the run's witness equivocations are computed once, whichever of
 * them asks first (src/evidence/witness-lines.ts). Calls are counted, never timed.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { StatementPool } from "../../src/witness/pool.js";
import type * as Cosignature from "../../src/witness/cosignature.js";
import { CURRENT_COSIGNED, PLAIN, WITNESSED, build, expectWindow, producerWindow, run, trustOf } from "./harness.js";

const counted = vi.hoisted(() => ({ cosignatures: 0 }));

vi.mock("../../src/witness/cosignature.js", async (importOriginal) => {
  const actual = await importOriginal<typeof Cosignature>();
  return {
    ...actual,
    verifyCosignature: (...args: Parameters<typeof actual.verifyCosignature>) => {
      counted.cosignatures++;
      return actual.verifyCosignature(...args);
    },
  };
});

afterEach(() => {
  vi.restoreAllMocks();
  counted.cosignatures = 0;
});

const witnessed = build(WITNESSED);
/** A revoked producer key, which signs the checkpoints too: every trusted time is asked for. */
const revoked = producerWindow({ revokedAt: "2026-10-01T10:00:00Z" });

/** The cosignature lines one input carries, and the equivocation pools computed while verifying it. */
function countOne(trust = trustOf(witnessed, revoked)) {
  const pools = vi.spyOn(StatementPool.prototype, "with");
  counted.cosignatures = 0;
  const { input } = run(witnessed, trust);
  const lines = input.properties.continuity.checks.filter((c) => c.id === "cosignature.signature");
  return { input, lines: lines.length, verified: counted.cosignatures, pools: pools.mock.calls.length };
}

describe("the witness lines with key windows", () => {
  it("the trusted times come from the witness's cosignatures of both checkpoints", () => {
    const { input, lines } = countOne();
    expect(lines).toBe(2);
    expectWindow(input, "producerSignature", "PASS", { state: "PASS", time: CURRENT_COSIGNED });
    expectWindow(input, "continuity", "PASS", { state: "PASS", time: "2026-10-01T09:00:10Z" }, "prior checkpoint");
    expect(input.properties.continuity.state).toBe("PASS");
  });

  it("verifies each carried line once, for continuity and the trusted times together", () => {
    const { lines, verified } = countOne();
    expect(verified).toBe(lines);
  });

  it("computes the run's witness equivocations once per input", () => {
    expect(countOne().pools).toBe(1);
  });

  it("does no more of either than a trust file without windows does", () => {
    const windowed = countOne();
    const plain = countOne(trustOf(witnessed));
    expect(plain.input.properties.continuity.state).toBe("PASS");
    expect({ verified: windowed.verified, pools: windowed.pools }).toEqual({
      verified: plain.verified,
      pools: plain.pools,
    });
  });

  it("asks for no equivocation pool where no line is carried", () => {
    const plain = build(PLAIN);
    const pools = vi.spyOn(StatementPool.prototype, "with");
    run(plain, trustOf(plain, revoked));
    expect(pools).not.toHaveBeenCalled();
  });
});
