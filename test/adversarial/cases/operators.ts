/**
 * §9.19: who operates a Transparency Service is also read from its keys: a service whose key is a
 * producer key, or the record's own, is producer-operated whatever the trust file says.
 */
import type { Check } from "../../../src/index.js";
import { signer } from "../../../producer/mutate.js";
import { TS_URL } from "../../properties/harness.js";
import { attacked, copy, honest, requestOf, type AdversarialCase, type Expected } from "../harness.js";

/** The verified stamp's check must carry `operator` as a JSON field with this label. */
const operatorIs =
  (label: string): Expected["more"] =>
  (_r, input) => {
    const verified = input?.properties.externalRegistration.checks.find(
      (k) => k.id === "witness.signature" && k.state === "PASS",
    ) as (Check & { operator?: string }) | undefined;
    if (verified?.operator !== label)
      throw new Error(
        `witness.signature operator is ${JSON.stringify(verified?.operator)}, expected ${label}: ${verified?.detail}`,
      );
  };

export const OPERATOR_CASES: readonly AdversarialCase[] = [
  {
    name: "service signing with the producer key, labelled independent",
    rule: "§9.19",
    attack:
      "the Transparency Service's receipts are signed with the producer's own key; the trust file calls it independent",
    request: () => requestOf(honest({ witnesses: [{ url: TS_URL, treeSize: 7, leafIndex: 4, keyLabel: "producer" }] })),
    expected: {
      exitCode: 0,
      property: "externalRegistration",
      state: "PASS",
      check: "witness.signature",
      more: operatorIs("producer-operated"),
    },
  },
  {
    name: "service key that is another authority's producer key",
    rule: "§9.19",
    attack:
      "the service's key is also pinned as a producer key (of a sister authority); the trust file calls the service independent",
    request: () => {
      const e = honest({ witnesses: [{ url: TS_URL, treeSize: 7, leafIndex: 4, keyLabel: "sister producer" }] });
      const trust = copy(e.trust);
      (trust.producers as unknown[]).push(
        copy({ authority: "sister.example", keys: [signer("sister producer").publicKeyHex] } as never),
      );
      return requestOf(e, { trust });
    },
    expected: {
      exitCode: 0,
      property: "externalRegistration",
      state: "PASS",
      check: "witness.signature",
      more: operatorIs("producer-operated"),
    },
  },
  {
    name: "service signing with the checkpoint's own key",
    rule: "§9.19",
    attack:
      "the log's checkpoints and the service's receipts are signed by one key (not a producer key); the trust file calls the service independent",
    request: () => {
      const logKey = signer("log key");
      const e = attacked(
        {},
        { witnesses: [{ url: TS_URL, treeSize: 7, leafIndex: 4, keyLabel: "log key" }] },
        { checkpoint: logKey, transparencyService: () => logKey },
      );
      return requestOf(e);
    },
    expected: {
      // The checkpoint's signer is neither the producer key nor pinned, so the level stays SIGNED_RECORD below the negotiated one.
      exitCode: 3,
      property: "externalRegistration",
      state: "PASS",
      check: "witness.signature",
      intact: ["contentBinding", "producerSignature", "localInclusion"],
      more: operatorIs("producer-operated"),
    },
  },
  {
    name: "independent service labelled in a field",
    rule: "§9.19",
    attack: "(control) an honest independent service: the label is a JSON field on the check",
    request: () => requestOf(honest()),
    expected: {
      exitCode: 0,
      property: "externalRegistration",
      state: "PASS",
      check: "witness.signature",
      more: operatorIs("independent"),
    },
  },
];
