/**
 * §9.10, §9.11: the claimed evidence level against what the bundle carries, property by property;
 * stub stamps carry no registration.
 */
import type { ExchangeOptions } from "../../../producer/options.js";
import { flipHexDigit } from "../../../producer/mutations.js";
import { arrayAt, attacked, copy, honest, requestOf, type AdversarialCase, type Expected } from "../harness.js";

const ASKED_SIGNED: ExchangeOptions["requirement"] = { minimumEvidence: "SIGNED_RECORD" };
const STUBS_ONLY: ExchangeOptions = {
  witnesses: [{ url: "https://witness.a2a-evidence.example", stub: true }],
  evidenceStatus: "EVIDENCE_STATUS_EXTERNALLY_REGISTERED",
  requirement: ASKED_SIGNED,
};

const claimed =
  (state: string): Expected["more"] =>
  (_r, input) => {
    const c = input?.properties.referenceConsistency.checks.find((k) => k.id === "reference.claimedLevel");
    if (c?.state !== state) throw new Error(`reference.claimedLevel is ${c?.state}: ${c?.detail}`);
  };

export const CLAIM_CASES: readonly AdversarialCase[] = [
  {
    name: "claims EXTERNALLY_REGISTERED without any stamp",
    rule: "§9.10",
    attack: "the server states EXTERNALLY_REGISTERED in every reference copy over a checkpoint no service stamped",
    request: () =>
      requestOf(
        honest({ witnesses: [], evidenceStatus: "EVIDENCE_STATUS_EXTERNALLY_REGISTERED", requirement: ASKED_SIGNED }),
      ),
    expected: { exitCode: 1, property: "referenceConsistency", state: "FAIL", check: "reference.claimedLevel" },
  },
  {
    name: "claims CONTINUITY_WITNESSED",
    rule: "§9.10",
    attack: "the server states CONTINUITY_WITNESSED; v1 carries no continuity assertion",
    request: () => requestOf(honest({ evidenceStatus: "EVIDENCE_STATUS_CONTINUITY_WITNESSED" })),
    expected: { exitCode: 1, property: "referenceConsistency", state: "FAIL", check: "reference.claimedLevel" },
  },
  {
    name: "claim over a failing property is not assessed",
    rule: "§9.10",
    attack:
      "(control) one sibling hash of the inclusion proof changed, re-digested: localInclusion FAILs, the claim is not also an overclaim",
    request: () =>
      requestOf(
        attacked({
          manifest: (m) =>
            void arrayAt(m, "localInclusionProof", "witness").splice(
              0,
              1,
              flipHexDigit(arrayAt(m, "localInclusionProof", "witness")[0] as string),
            ),
        }),
      ),
    expected: {
      exitCode: 1,
      property: "localInclusion",
      state: "FAIL",
      check: "inclusion.verify",
      more: claimed("NOT_CHECKED"),
    },
  },
  {
    name: "claim unconfirmed for lack of trust material",
    rule: "§9.10",
    attack:
      "(control) EXTERNALLY_REGISTERED claimed, SIGNED_RECORD negotiated, the service not pinned: the claim is INCONCLUSIVE",
    request: () => {
      const e = honest({ requirement: ASKED_SIGNED });
      const trust = copy(e.trust);
      trust.transparencyServices = [];
      return requestOf(e, { trust });
    },
    expected: {
      exitCode: 0,
      property: "referenceConsistency",
      state: "INCONCLUSIVE",
      check: "reference.claimedLevel",
      intact: ["contentBinding", "producerSignature"],
    },
  },
  {
    name: "only stub stamps",
    rule: "§9.11",
    attack: "the checkpoint's only witness record is a stub",
    request: () => requestOf(honest(STUBS_ONLY)),
    expected: { exitCode: 1, property: "externalRegistration", state: "NOT_PRESENT", check: "witness.stub" },
  },
  {
    name: "EXTERNALLY_REGISTERED claimed over stub stamps",
    rule: "§9.11",
    attack: "EXTERNALLY_REGISTERED stated in every reference copy; the only stamp is a stub",
    request: () => requestOf(honest(STUBS_ONLY)),
    expected: { exitCode: 1, property: "referenceConsistency", state: "FAIL", check: "reference.claimedLevel" },
  },
];
