/**
 * identityAuthorityBinding: authority.keyAuthorized — capsule.key_id ∈ trust.producers[payload.authority],
 * every branch through verify(). The only source of "who may speak for whom" is the caller's trust file.
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, type JsonObject } from "../../src/json/value.js";
import type { Tamper } from "../../producer/options.js";
import {
  OTHER_PROFILE,
  at,
  baseline,
  capture,
  check,
  checkOf,
  copy,
  expectCase,
  expectDecided,
  statesOf,
  tampered,
  type Case,
  type States,
} from "./harness.js";
import { PRODUCER, signer } from "./resign.js";

const AUTHORITY = "a2a-evidence-producer.example";
const OTHER = signer("another producer");
const producers = (t: JsonObject) => at(t, "producers", 0);

describe("identityAuthorityBinding FAIL paths", () => {
  const cases: Case[] = [
    {
      name: "the trust file authorises another key for the authority",
      tamper: { trust: (t) => void (producers(t).keys = [OTHER.publicKeyHex]) },
      decided: {
        state: "FAIL",
        check: "authority.keyAuthorized",
        detail: `key_id=${PRODUCER.publicKeyHex} is not authorized for authority=${AUTHORITY} (the trust file lists 1 other key(s))`,
      },
    },
    {
      name: "the trust file does not list the authority",
      tamper: { trust: (t) => void (producers(t).authority = "someone-else.example") },
      decided: {
        state: "FAIL",
        check: "authority.keyAuthorized",
        detail: `authority=${AUTHORITY} is not in the trust file (authorities: someone-else.example)`,
      },
    },
    {
      name: "the payload was sealed for another authority",
      tamper: { payload: (p) => void (p.authority = "impostor.example") },
      decided: {
        state: "FAIL",
        check: "authority.keyAuthorized",
        detail: /^authority=impostor\.example is not in the trust file/,
      },
    },
  ];

  it.each(cases)("$name", (c) => {
    const input = expectCase("identityAuthorityBinding", c);
    expect(checkOf(input, "identityAuthorityBinding", "authority.keyAuthorized").values?.keyId).toBe(
      PRODUCER.publicKeyHex,
    );
  });
});

describe("identityAuthorityBinding PASS, NOT_PRESENT and NOT_CHECKED", () => {
  const e = capture();

  it("PASS: the key is listed for the payload's authority", () => {
    const input = check(e);
    expectDecided(input, "identityAuthorityBinding", {
      state: "PASS",
      check: "authority.keyAuthorized",
      detail: `key_id=${PRODUCER.publicKeyHex} authorized for authority=${AUTHORITY}`,
    });
  });

  it("PASS when the key is one of several listed", () => {
    const input = tampered({ trust: (t) => void (producers(t).keys = [OTHER.publicKeyHex, PRODUCER.publicKeyHex]) });
    expectDecided(input, "identityAuthorityBinding", { state: "PASS", check: "authority.keyAuthorized" });
  });

  it("no trust file: NOT_CHECKED", () => {
    const input = check(e, { trust: null });
    expectDecided(input, "identityAuthorityBinding", {
      state: "NOT_CHECKED",
      check: "authority.keyAuthorized",
      detail: /^no producer keys are configured/,
    });
    // Without trust nothing is pinned for the Transparency Service either.
    expect(statesOf(input)).toEqual(
      baseline({
        identityAuthorityBinding: "NOT_CHECKED",
        externalRegistration: "INCONCLUSIVE",
        referenceConsistency: "INCONCLUSIVE",
      }),
    );
  });

  it("a trust file without producers: NOT_CHECKED", () => {
    const trust = copy(e.trust);
    trust.producers = [];
    const input = check(e, { trust });
    expectDecided(input, "identityAuthorityBinding", { state: "NOT_CHECKED", check: "authority.keyAuthorized" });
  });

  it.each([
    [
      "no payload authority",
      { payload: (p: JsonObject) => void delete p.authority },
      "the bundle states no payload authority",
      {},
    ],
    [
      "a payload authority that is not a string",
      { payload: (p: JsonObject) => void (p.authority = new JsonNumber("7")) },
      "the bundle states no payload authority",
      {},
    ],
    [
      "no capsule key_id",
      { bundle: (b: JsonObject) => void delete at(b, "capsule").key_id },
      "the bundle states no capsule key_id",
      { producerSignature: "FAIL" },
    ],
  ] as Array<[string, Tamper, string, Partial<States>]>)("NOT_PRESENT with %s", (_, tamper, detail, also) => {
    const input = tampered(tamper);
    expectDecided(input, "identityAuthorityBinding", {
      state: "NOT_PRESENT",
      check: "authority.keyAuthorized",
      detail,
    });
    expect(statesOf(input)).toEqual(baseline({ identityAuthorityBinding: "NOT_PRESENT", ...also }));
  });

  it("an unsupported record profile: NOT_CHECKED", () => {
    const input = tampered({ bundle: (b) => void (b.recordProfile = OTHER_PROFILE) });
    expectDecided(input, "identityAuthorityBinding", {
      state: "NOT_CHECKED",
      check: "authority.keyAuthorized",
      detail: "unsupported record profile https://example.com/profiles/other/v9",
    });
  });
});
