/**
 * verify() never throws, and one bad input never hides the others' reports (contract §9.21); a
 * value JSON cannot carry (a bigint) is rendered as a string.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verify } from "../../src/verify.js";
import { renderJson } from "../../src/report/json.js";
import { isFailedInput, type Report } from "../../src/report/model.js";
import type { JsonValue } from "../../src/json/value.js";
import type { TrustConfig } from "../../src/trust/config.js";
import { REPO_ROOT } from "../helpers/external.js";

const MINIMAL = readFileSync(join(REPO_ROOT, "vectors", "valid-minimal", "input.json"));
const TRUST = readFileSync(join(REPO_ROOT, "vectors", "valid-minimal", "trust.json"));

describe("verify() never throws", () => {
  it("an input that throws while it is read is that input's error; the next input is still verified", () => {
    const hostile = Object.defineProperty(Object.create(null), "jsonrpc", {
      enumerable: true,
      get() {
        throw new Error("a getter that throws");
      },
    }) as JsonValue;
    const report = verify({
      inputs: [
        { source: "hostile", data: hostile },
        { source: "good", data: MINIMAL },
      ],
      trust: TRUST,
    });
    expect(report.inputs[0]).toEqual({
      source: "hostile",
      error: { code: "VERIFY_INTERNAL_ERROR", message: "the verifier failed unexpectedly: a getter that throws" },
      exitCode: 2,
    });
    const good = report.inputs[1];
    expect(good && !isFailedInput(good) && good.exitCode).toBe(0);
    expect(report.policy.exitCode).toBe(2);
  });

  it("a hand-made trust configuration that breaks a property: reported per input, never thrown", () => {
    const broken = {
      shape: "native",
      producers: new Map(),
      transparencyServices: undefined,
      witnesses: new Map(),
    } as unknown as TrustConfig;
    const report = verify({
      inputs: [
        { source: "a", data: MINIMAL },
        { source: "b", data: MINIMAL },
      ],
      trust: broken,
    });
    expect(report.inputs.map((i) => (isFailedInput(i) ? i.error.code : "verified"))).toEqual([
      "VERIFY_INTERNAL_ERROR",
      "VERIFY_INTERNAL_ERROR",
    ]);
  });

  it("a bigint anywhere in a report renders as a string", () => {
    const report = verify({ inputs: [{ source: "good", data: MINIMAL }], trust: TRUST });
    const withBigint = { ...report, extra: 2n ** 64n } as unknown as Report;
    expect(JSON.parse(renderJson(withBigint)).extra).toBe("18446744073709551616");
  });
});
