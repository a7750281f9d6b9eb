/**
 * §6: the default policy holds only when a producer the caller pins signed the record and it is
 * the record of the Task the caller observed, at the level the caller negotiated.
 */
import { EXTENSION_URI } from "../../../producer/constants.js";
import type { ExchangeOptions } from "../../../producer/options.js";
import { signer } from "../../../producer/mutate.js";
import { attacked, copy, honest, obj, objectAt, requestOf, type AdversarialCase } from "../harness.js";

/** No Transparency Service, a PREFERRED SIGNED_RECORD requirement: SIGNED_RECORD is all the caller asked for. */
const SIGNED_ONLY: ExchangeOptions = {
  witnesses: [],
  requirement: { requirement: "PREFERRED", minimumEvidence: "SIGNED_RECORD" },
};
const STRANGER = signer("a stranger who never was a producer");

export const POLICY_CASES: readonly AdversarialCase[] = [
  {
    name: "record signed by anyone, no trust file",
    rule: "§6",
    attack: "a record sealed and signed by a key nobody pins, verified without --trust",
    request: () => {
      const e = attacked({}, SIGNED_ONLY, { producer: STRANGER });
      return { inputs: [{ source: "attack", data: e.input }] };
    },
    expected: {
      exitCode: 3,
      property: "identityAuthorityBinding",
      state: "NOT_CHECKED",
      check: "authority.keyAuthorized",
      policyReason: /no producer key is pinned/,
    },
  },
  {
    name: "record signed by anyone, trust file without producers",
    rule: "§6",
    attack: "a record signed by a stranger's key, under a trust file that pins only the Transparency Service",
    request: () => {
      const e = attacked({}, SIGNED_ONLY, { producer: STRANGER });
      return requestOf(e, { trust: obj({ version: 1, transparencyServices: [] }) });
    },
    expected: {
      exitCode: 3,
      property: "identityAuthorityBinding",
      state: "NOT_CHECKED",
      check: "authority.keyAuthorized",
      policyReason: /no producer key is pinned/,
    },
  },
  {
    name: "record signed by a stranger under a pinned authority",
    rule: "§6",
    attack: "the whole record re-sealed and re-signed by a stranger's key; the trust file pins the real producer",
    request: () => requestOf(attacked({}, {}, { producer: STRANGER })),
    expected: { exitCode: 1, property: "identityAuthorityBinding", state: "FAIL", check: "authority.keyAuthorized" },
  },
  {
    name: "bare bundle without --task",
    rule: "§6",
    attack: "the bundle presented alone, so nothing ties it to a Task the caller saw",
    request: () => {
      const e = honest(SIGNED_ONLY);
      return requestOf(e, { inputs: [{ source: "attack", data: e.bundle }] });
    },
    expected: {
      exitCode: 3,
      property: "taskBinding",
      state: "NOT_CHECKED",
      check: "task.observed",
      policyReason: /no observed Task: pass --task/,
    },
  },
  {
    name: "observed history dropped",
    rule: "§6",
    attack: "the terminal Task returned without its history, so no transcript entry can be compared",
    request: () => requestOf(attacked({ finalTask: (t) => void delete t.history }, SIGNED_ONLY)),
    expected: { exitCode: 3, property: "taskBinding", state: "INCONCLUSIVE", check: "transcript.unobserved" },
  },
  {
    name: "observed artifacts dropped",
    rule: "§6",
    attack: "the terminal Task returned without its artifacts member (bundle inline in Task.metadata)",
    request: () =>
      requestOf(attacked({ finalTask: (t) => void delete t.artifacts }, { ...SIGNED_ONLY, carrier: "inline" })),
    expected: { exitCode: 3, property: "taskBinding", state: "INCONCLUSIVE", check: "artifact.binding" },
  },
  {
    name: "negotiated level not achieved",
    rule: "§6",
    attack:
      "the caller negotiated EXTERNALLY_REGISTERED; the service that stamped the checkpoint is one the caller does not pin",
    request: () => {
      const e = honest();
      const trust = copy(e.trust);
      trust.transparencyServices = [];
      return requestOf(e, { trust });
    },
    expected: {
      exitCode: 3,
      property: "externalRegistration",
      state: "INCONCLUSIVE",
      check: "registration.verified",
      policyReason: /below EXTERNALLY_REGISTERED/,
      more: (_report, input) => {
        if (
          input?.evidenceLevel.negotiated !== "EXTERNALLY_REGISTERED" ||
          input.evidenceLevel.achieved !== "SIGNED_RECORD"
        ) {
          throw new Error(`levels: ${JSON.stringify(input?.evidenceLevel)}`);
        }
      },
    },
  },
  {
    name: "min-evidence NONE drops the default requirements",
    rule: "§6",
    attack: "(control) a bare bundle signed by anyone, no trust file, --min-evidence NONE: only FAILs matter",
    request: () => {
      const e = attacked({}, SIGNED_ONLY, { producer: STRANGER });
      return { inputs: [{ source: "attack", data: e.bundle }], minEvidence: "NONE" };
    },
    expected: {
      exitCode: 0,
      property: "identityAuthorityBinding",
      state: "NOT_CHECKED",
      check: "authority.keyAuthorized",
    },
  },
  {
    name: "required property not PASS",
    rule: "§6",
    attack: "(control) --require continuity over an honest record that carries no continuity assertion",
    request: () => requestOf(honest(), { require: ["continuity"] }),
    expected: { exitCode: 3, property: "continuity", state: "NOT_PRESENT", check: "witness.assertion" },
  },
  {
    name: "honest capture under the default policy",
    rule: "§6",
    attack: "(control) nothing: the honest capture with its own trust file exits 0",
    request: () => requestOf(honest()),
    expected: {
      exitCode: 0,
      property: "taskBinding",
      state: "PASS",
      check: "transcript.message",
      more: (_report, input) => {
        const ref = objectAt(honest().finalTask, "metadata", EXTENSION_URI);
        if (input?.evidenceLevel.achieved !== "EXTERNALLY_REGISTERED" || typeof ref.evidenceId !== "string")
          throw new Error("the honest capture is not EXTERNALLY_REGISTERED");
      },
    },
  },
];
