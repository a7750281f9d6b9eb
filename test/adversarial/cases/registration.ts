/**
 * §9.7: a Transparency Service's stamps are evidence about its log. A log of a given size has one
 * root, so two stamps of one service, each verified under its pinned key, that fold to two roots
 * for one tree size are the service's signed proof that it forked its log: registration in a log
 * that shows different histories to different readers proves nothing, and is never outvoted.
 */
import type { WitnessOptions } from "../../../producer/options.js";
import type { JsonObject } from "../../../src/index.js";
import { TS_URL } from "../../properties/harness.js";
import { copy, honest, requestOf, type AdversarialCase } from "../harness.js";

const OTHER_TS = "https://ts2.a2a-evidence.example";

/** The honest capture stamped as `witnesses` says, its trust file listing each service once. */
function stamped(witnesses: readonly WitnessOptions[]) {
  const e = honest({ witnesses });
  const trust = copy(e.trust);
  const seen = new Set<unknown>();
  trust.transparencyServices = (trust.transparencyServices as JsonObject[]).filter((s) => {
    if (seen.has(s.url)) return false;
    seen.add(s.url);
    return true;
  });
  return requestOf(e, { trust });
}

export const REGISTRATION_CASES: readonly AdversarialCase[] = [
  {
    name: "one service, two roots for one tree size",
    rule: "§9.7",
    attack:
      "two stamps of the same service, each valid under its pinned key, prove the checkpoint at leaves 2 and 5 of two different 8-entry trees",
    request: () =>
      stamped([
        { url: TS_URL, treeSize: 8, leafIndex: 2 },
        { url: TS_URL, treeSize: 8, leafIndex: 5 },
      ]),
    expected: {
      exitCode: 1,
      property: "externalRegistration",
      state: "FAIL",
      check: "registration.consistent",
      detail:
        /"detail":"the service signed two roots for tree size 8: [0-9a-f]{64} \(manifest\.cllCheckpoint\.witnesses\[0\]\) and [0-9a-f]{64} \(manifest\.cllCheckpoint\.witnesses\[1\]\); a log has one root per size, so the service forked its log"/,
    },
  },
  {
    name: "one service, the same stamp twice",
    rule: "§9.7",
    attack: "a guard: two stamps of one service for one tree size and leaf fold to one root, and agree",
    request: () =>
      stamped([
        { url: TS_URL, treeSize: 8, leafIndex: 2 },
        { url: TS_URL, treeSize: 8, leafIndex: 2 },
      ]),
    expected: {
      exitCode: 0,
      property: "externalRegistration",
      state: "PASS",
      check: "registration.consistent",
      detail: /"detail":"2 stamps of tree size 8 fold to one root [0-9a-f]{64}"/,
    },
  },
  {
    name: "one service at two tree sizes, and two services at one",
    rule: "§9.7",
    attack:
      "a guard: a log grows, so one service's stamps at sizes 8 and 9 may fold to two roots, as may two services' logs of one size; nothing is compared",
    request: () =>
      stamped([
        { url: TS_URL, treeSize: 8, leafIndex: 2 },
        { url: TS_URL, treeSize: 9, leafIndex: 2 },
        { url: OTHER_TS, treeSize: 8, leafIndex: 5 },
      ]),
    expected: {
      exitCode: 0,
      property: "externalRegistration",
      state: "PASS",
      check: "registration.verified",
      more: (_r, input) => {
        const ids = input?.properties.externalRegistration.checks.map((k) => k.id) ?? [];
        if (ids.includes("registration.consistent")) throw new Error(`compared what may differ: ${ids.join(", ")}`);
      },
    },
  },
];
