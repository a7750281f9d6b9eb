/**
 * externalRegistration: per witness record witness.entryHash, witness.receipt,
 * witness.treePosition, witness.signature and witness.stub, then registration.verified — every
 * branch through verify().
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { bytesToBase64, hexToBytes, sha256, utf8 } from "../../src/util/bytes.js";
import { coseSign1, encodeCbor, type CborValue } from "../../producer/cose.js";
import { flipHexMember, flipLastBase64Byte } from "../../producer/mutations.js";
import type { Tamper, WitnessOptions } from "../../producer/options.js";
import { rfc9162LeafHash } from "../../producer/rfc9162.js";
import {
  OTHER_PROFILE,
  TS_URL,
  at,
  baseline,
  capture,
  check,
  checkOf,
  checkStates,
  copy,
  expectCase,
  expectDecided,
  statesOf,
  tampered,
  widenedAt,
  type Case,
  type States,
} from "./harness.js";
import { resignedCheckpoint, signer, transparencyServiceSigner } from "./resign.js";

const TS_TWO = "https://ts-two.a2a-evidence.example";
const STAMP = "manifest.cllCheckpoint.witnesses[0]";
const stamp = (i = 0, url = TS_URL) => `manifest.cllCheckpoint.witnesses[${i}] ${url}`;

const recordOf = (m: JsonObject, i = 0) => at(m, "cllCheckpoint", "witnesses", i);
const inRecord = (change: (record: JsonObject) => void, i = 0): Tamper => ({ manifest: (m) => change(recordOf(m, i)) });

/** One Transparency Service whose log holds only our entry: its root is the entry's leaf hash. */
const SINGLE: { witnesses: WitnessOptions[] } = { witnesses: [{ url: TS_URL }] };

interface Receipt {
  readonly protectedHeader?: Array<[number, CborValue]>;
  readonly proofs?: CborValue;
  readonly attached?: boolean;
  readonly root?: Uint8Array;
}

/** A receipt for the single-entry log, signed by the service's own key, with one part changed. */
function receiptFor(entryHash: string, r: Receipt = {}): string {
  const entry = hexToBytes(entryHash) as Uint8Array;
  const proofs = r.proofs ?? [encodeCbor([1, 0, []])];
  const unprotected =
    r.proofs === null ? new Map() : new Map<number, CborValue>([[396, new Map<number, CborValue>([[-1, proofs]])]]);
  const bytes = coseSign1({
    protectedHeader: r.protectedHeader ?? [
      [395, 1],
      [1, -8],
    ],
    unprotectedHeader: unprotected,
    payload: r.root ?? rfc9162LeafHash(entry),
    detached: r.attached !== true,
    sign: transparencyServiceSigner(TS_URL).sign,
  });
  return bytesToBase64(bytes);
}

/** Replaces the single-entry stamp's receipt with `r`. */
const crafted = (r: Receipt | ((entryHash: string) => Receipt)): Tamper =>
  inRecord((record) => {
    const entryHash = record.entry_hash as string;
    record.receipt_b64 = receiptFor(entryHash, typeof r === "function" ? r(entryHash) : r);
  });

/** A CCF (vds 2) inclusion proof for `claims` under a one-step path, and the root it folds to. */
function ccfReceipt(claims: Uint8Array): Receipt {
  const writeSet = sha256(utf8("write set"));
  const commitEvidence = "ce:2.19:0123";
  const sibling = sha256(utf8("sibling"));
  const leaf = sha256(writeSet, sha256(utf8(commitEvidence)), claims);
  const proof = new Map<number, CborValue>([
    [1, [writeSet, commitEvidence, claims]],
    [2, [[true as unknown as CborValue, sibling]]],
  ]);
  return {
    protectedHeader: [
      [395, 2],
      [1, -8],
    ],
    proofs: [encodeCbor(proof)],
    root: sha256(sibling, leaf),
  };
}

describe("externalRegistration FAIL paths", () => {
  const cases: Case[] = [
    {
      name: "checkpoint malformed: no stamp can be bound to it",
      tamper: { manifest: (m) => void (at(m, "cllCheckpoint").v = new JsonNumber("2")) },
      decided: {
        state: "FAIL",
        check: "witness.entryHash",
        code: "CHECKPOINT_VERSION_UNSUPPORTED",
        detail: /^the checkpoint is malformed, so no stamp can be bound to it/,
      },
      also: { checkpointSignature: "FAIL" },
    },
    {
      name: "witness record not an object",
      tamper: { manifest: (m) => void ((at(m, "cllCheckpoint").witnesses as JsonValue[])[0] = "stamp") },
      decided: { state: "FAIL", check: "witness.receipt", subject: STAMP, detail: /witness record is not an object/ },
    },
    {
      name: "ts_url not a string",
      tamper: inRecord((r) => void (r.ts_url = null)),
      decided: { state: "FAIL", check: "witness.receipt", subject: STAMP, detail: /ts_url is not a string/ },
    },
    {
      name: "entry_hash of another checkpoint",
      tamper: inRecord((r) => flipHexMember(r, "entry_hash")),
      decided: {
        state: "FAIL",
        check: "witness.entryHash",
        subject: stamp(),
        detail: /the stamp is not bound to this checkpoint/,
      },
    },
    {
      name: "entry_hash missing",
      tamper: inRecord((r) => void delete r.entry_hash),
      decided: { state: "FAIL", check: "witness.entryHash", subject: stamp(), detail: /entry_hash absent != / },
    },
    {
      name: "a signed checkpoint member changed: the registered entry is another checkpoint",
      tamper: { manifest: (m) => void (at(m, "cllCheckpoint").timestamp = "2026-10-01T09:30:01.254107Z") },
      decided: { state: "FAIL", check: "witness.entryHash", subject: stamp() },
      also: { checkpointSignature: "FAIL" },
    },
    {
      name: "receipt_b64 not strict base64",
      tamper: inRecord((r) => void (r.receipt_b64 = `${r.receipt_b64 as string}\n`)),
      decided: {
        state: "FAIL",
        check: "witness.receipt",
        subject: stamp(),
        detail: /receipt_b64 is not strict standard base64/,
      },
    },
    {
      name: "receipt bytes not CBOR",
      tamper: inRecord((r) => void (r.receipt_b64 = bytesToBase64(utf8("not a receipt")))),
      decided: {
        state: "FAIL",
        check: "witness.receipt",
        subject: stamp(),
        code: "CBOR_TRUNCATED",
        detail: /the receipt does not decode and reconstruct/,
      },
    },
    {
      name: "receipt not tagged COSE_Sign1",
      tamper: inRecord(
        (r) =>
          void (r.receipt_b64 = bytesToBase64(encodeCbor([new Uint8Array(0), new Map(), null, new Uint8Array(64)]))),
      ),
      decided: { state: "FAIL", check: "witness.receipt", subject: stamp(), code: "COSE_UNTAGGED" },
    },
    {
      name: "vds only unprotected (none in the protected header)",
      options: SINGLE,
      tamper: crafted({ protectedHeader: [[1, -8]] }),
      decided: { state: "FAIL", check: "witness.receipt", subject: stamp(), code: "RECEIPT_VDS_MISSING" },
    },
    {
      name: "vds neither RFC 9162 nor CCF",
      options: SINGLE,
      tamper: crafted({
        protectedHeader: [
          [395, 3],
          [1, -8],
        ],
      }),
      decided: { state: "FAIL", check: "witness.receipt", subject: stamp(), code: "RECEIPT_VDS_UNSUPPORTED" },
    },
    {
      name: "root attached instead of detached",
      options: SINGLE,
      tamper: crafted({ attached: true }),
      decided: { state: "FAIL", check: "witness.receipt", subject: stamp(), code: "RECEIPT_PAYLOAD_ATTACHED" },
    },
    {
      name: "no inclusion proofs",
      options: SINGLE,
      tamper: crafted({ proofs: null }),
      decided: { state: "FAIL", check: "witness.receipt", subject: stamp(), code: "RECEIPT_PROOFS_MISSING" },
    },
    {
      name: "an inclusion proof that is not [tree_size, leaf_index, path]",
      options: SINGLE,
      tamper: crafted({ proofs: [encodeCbor([1, 0])] }),
      decided: { state: "FAIL", check: "witness.receipt", subject: stamp(), code: "RECEIPT_PROOF_MALFORMED" },
    },
    {
      name: "an inclusion path longer than the tree shape allows",
      options: SINGLE,
      tamper: crafted({ proofs: [encodeCbor([1, 0, [new Uint8Array(32)]])] }),
      decided: { state: "FAIL", check: "witness.receipt", subject: stamp(), code: "RFC9162_PATH_LENGTH" },
    },
    {
      name: "two inclusion proofs",
      options: SINGLE,
      tamper: crafted({ proofs: [encodeCbor([1, 0, []]), encodeCbor([1, 0, []])] }),
      decided: {
        state: "FAIL",
        check: "witness.receipt",
        subject: stamp(),
        detail: /the receipt carries 2 inclusion proofs; exactly one is expected/,
      },
    },
    {
      name: "a CCF proof whose claims digest is another entry",
      options: SINGLE,
      tamper: crafted(() => ccfReceipt(sha256(utf8("another statement")))),
      decided: { state: "FAIL", check: "witness.receipt", subject: stamp(), code: "CCF_CLAIMS_DIGEST_MISMATCH" },
    },
    {
      name: "record leaf_index differs from the receipt's",
      tamper: inRecord((r) => void (r.leaf_index = new JsonNumber("3"))),
      decided: {
        state: "FAIL",
        check: "witness.treePosition",
        subject: stamp(),
        detail: /the receipt proves leaf 4 of 7, the record says leaf 3 of 7/,
      },
    },
    {
      name: "record tree_size differs from the receipt's",
      tamper: inRecord((r) => void (r.tree_size = new JsonNumber("8"))),
      decided: {
        state: "FAIL",
        check: "witness.treePosition",
        subject: stamp(),
        detail: /the record says leaf 4 of 8/,
      },
    },
    {
      name: "receipt signature byte flipped",
      tamper: inRecord((r) => void (r.receipt_b64 = flipLastBase64Byte(r.receipt_b64 as string))),
      decided: {
        state: "FAIL",
        check: "witness.signature",
        subject: stamp(),
        code: "COSE_SIGNATURE_INVALID",
        detail: /a forged or misattributed stamp/,
      },
    },
    {
      name: "a receipt signed by a key other than the one pinned for its service",
      options: SINGLE,
      tamper: inRecord((r) => {
        const entry = hexToBytes(r.entry_hash as string) as Uint8Array;
        const other = signer("impostor transparency service");
        r.receipt_b64 = bytesToBase64(
          coseSign1({
            protectedHeader: [
              [395, 1],
              [1, -8],
            ],
            unprotectedHeader: new Map<number, CborValue>([
              [396, new Map<number, CborValue>([[-1, [encodeCbor([1, 0, []])]]])],
            ]),
            payload: rfc9162LeafHash(entry),
            detached: true,
            sign: other.sign,
          }),
        );
      }),
      decided: { state: "FAIL", check: "witness.signature", subject: stamp(), code: "COSE_SIGNATURE_INVALID" },
    },
  ];

  it.each(cases)("$name", (c) => void expectCase("externalRegistration", c));

  it("the trust file pins another key for the service: FAIL, never NOT_CHECKED", () => {
    const e = capture();
    const trust = tamperedTrust(
      e.trust,
      (t) => void (at(t, "transparencyServices", 0).keys = [signer("someone else's service").publicKeyHex]),
    );
    const input = check(e, { trust });
    expectDecided(input, "externalRegistration", {
      state: "FAIL",
      check: "witness.signature",
      subject: stamp(),
      code: "COSE_SIGNATURE_INVALID",
    });
    expect(statesOf(input)).toEqual(baseline({ externalRegistration: "FAIL" }));
  });

  it("a forged stamp is not outvoted by a stamp that verifies (contract §9.7)", () => {
    const e = capture(
      { witnesses: [{ url: TS_URL, treeSize: 7, leafIndex: 4 }, { url: TS_TWO }] },
      inRecord((r) => void (r.receipt_b64 = flipLastBase64Byte(r.receipt_b64 as string)), 1),
    );
    const input = check(e);
    expectDecided(input, "externalRegistration", {
      state: "FAIL",
      check: "witness.signature",
      subject: stamp(1, TS_TWO),
      code: "COSE_SIGNATURE_INVALID",
    });
    expect(checkOf(input, "externalRegistration", "witness.signature", stamp(0)).state).toBe("PASS");
    expect(checkOf(input, "externalRegistration", "registration.verified").state).toBe("PASS");
  });
});

function tamperedTrust(trust: JsonObject, change: (t: JsonObject) => void): JsonObject {
  const changed = copy(trust);
  change(changed);
  return changed;
}

describe("externalRegistration PASS, INCONCLUSIVE, NOT_PRESENT and NOT_CHECKED", () => {
  const e = capture();

  it("the service's label is a JSON field of witness.signature, from the trust file when no key says otherwise", () => {
    const input = check(e);
    expect(checkOf(input, "externalRegistration", "witness.signature", stamp()).operator).toBe("independent");
  });

  it("a service that signs with the producer's own key is producer-operated, whatever the trust file says (§9.19)", () => {
    const sameKey = capture({ witnesses: [{ url: TS_URL, treeSize: 7, leafIndex: 4, keyLabel: "producer" }] });
    const input = check(sameKey);
    const sig = checkOf(input, "externalRegistration", "witness.signature", stamp());
    expect(sig.state).toBe("PASS");
    expect(sig.operator).toBe("producer-operated");
    expect(sig.detail).toMatch(
      /producer-operated: its key [0-9a-f]{64} is also a producer key in the trust file, whatever the trust file says/,
    );
    expect(input.properties.externalRegistration.detail).toMatch(/producer-operated/);
  });

  it("a service whose key the trust file also lists for another producer is producer-operated (§9.19)", () => {
    const tsKey = transparencyServiceSigner(TS_URL).publicKeyHex;
    const trust = tamperedTrust(
      e.trust,
      (t) =>
        void (t.producers as JsonValue[]).push({
          authority: "other-agent.example",
          keys: [tsKey],
        } as unknown as JsonObject),
    );
    const sig = checkOf(check(e, { trust }), "externalRegistration", "witness.signature", stamp());
    expect(sig.operator).toBe("producer-operated");
    expect(sig.detail).toContain(`its key ${tsKey} is also a producer key in the trust file`);
  });

  it("a service whose key is the checkpoint's key is producer-operated (§9.19)", () => {
    const cpSigner = signer("checkpoint key");
    const trust = tamperedTrust(e.trust, (t) => {
      const ts = (t.transparencyServices as JsonObject[])[0] as JsonObject;
      (ts.keys as JsonValue[]).push(cpSigner.publicKeyHex);
    });
    const input = check(capture({}, { manifest: resignedCheckpoint({}, cpSigner) }), { trust });
    const sig = checkOf(input, "externalRegistration", "witness.signature", stamp());
    expect(sig.operator).toBe("producer-operated");
    expect(sig.detail).toContain("is the checkpoint's key_id");
  });

  it("PASS: a stamp verified under the key pinned for its service, labelled from the trust file", () => {
    const input = check(e);
    expectDecided(input, "externalRegistration", {
      state: "PASS",
      check: "witness.entryHash",
      subject: stamp(),
      detail: `${TS_URL} (independent): witnessed`,
    });
    expect(checkStates(input, "externalRegistration")).toEqual([
      "witness.entryHash PASS",
      "witness.receipt PASS",
      "witness.treePosition PASS",
      "witness.signature PASS",
      "registration.verified PASS",
    ]);
  });

  it("a producer-operated service establishes registration, labelled so", () => {
    const input = check(capture({ witnesses: [{ url: TS_URL, treeSize: 7, leafIndex: 4, operator: "producer" }] }));
    expectDecided(input, "externalRegistration", {
      state: "PASS",
      check: "witness.entryHash",
      subject: stamp(),
      detail: `${TS_URL} (producer-operated): witnessed`,
    });
  });

  it("two services, Ed25519 and ES256, both verified", () => {
    const input = check(
      capture({
        witnesses: [
          { url: TS_URL, treeSize: 7, leafIndex: 4 },
          { url: TS_TWO, alg: "ES256", treeSize: 100, leafIndex: 57 },
        ],
      }),
    );
    expectDecided(input, "externalRegistration", { state: "PASS", check: "witness.entryHash", subject: stamp() });
    expect(checkOf(input, "externalRegistration", "registration.verified").detail).toBe(
      "2 of 2 stamp(s) verified under pinned keys",
    );
  });

  it("a stub stamp beside a real one never counts and is never a FAIL", () => {
    const input = check(
      capture({
        witnesses: [
          { url: TS_URL, treeSize: 7, leafIndex: 4 },
          { url: TS_TWO, stub: true },
        ],
      }),
    );
    expectDecided(input, "externalRegistration", { state: "PASS", check: "witness.entryHash", subject: stamp() });
    const stub = checkOf(input, "externalRegistration", "witness.stub");
    expect([stub.state, stub.subject]).toEqual(["NOT_PRESENT", stamp(1, TS_TWO)]);
    expect(checkOf(input, "externalRegistration", "registration.verified").detail).toBe(
      "1 of 2 stamp(s) verified under pinned keys",
    );
  });

  it("a CCF receipt (no tree position to compare): treePosition NOT_CHECKED, signature verified", () => {
    const input = tampered(
      crafted((entryHash) => ccfReceipt(hexToBytes(entryHash) as Uint8Array)),
      SINGLE,
    );
    expectDecided(input, "externalRegistration", { state: "PASS", check: "witness.entryHash", subject: stamp() });
    expect(checkStates(input, "externalRegistration")).toEqual([
      "witness.entryHash PASS",
      "witness.receipt PASS",
      "witness.treePosition NOT_CHECKED",
      "witness.signature PASS",
      "registration.verified PASS",
    ]);
  });

  it("no trust file: the stamp cannot be verified, INCONCLUSIVE", () => {
    const input = check(e, { trust: null });
    expectDecided(input, "externalRegistration", {
      state: "INCONCLUSIVE",
      check: "registration.verified",
      detail: "no trust file: no Transparency Service key is pinned, so no stamp can be verified",
    });
    const sig = checkOf(input, "externalRegistration", "witness.signature");
    expect([sig.state, sig.detail]).toEqual(["NOT_CHECKED", "no trust file: no key is pinned for this service"]);
  });

  it("a trust file that does not list the service: the stamp does not count, INCONCLUSIVE", () => {
    const input = check(e, { trust: tamperedTrust(e.trust, (t) => void (t.transparencyServices = [])) });
    expectDecided(input, "externalRegistration", {
      state: "INCONCLUSIVE",
      check: "registration.verified",
      detail: "no stamp verified under a key the trust file pins for its service (1 non-stub stamp(s) carried)",
    });
    expect(checkOf(input, "externalRegistration", "witness.signature").detail).toBe(
      `${TS_URL} is not a Transparency Service in the trust file: the stamp does not count`,
    );
    // The claimed EXTERNALLY_REGISTERED cannot be confirmed for lack of trust material.
    expect(statesOf(input)).toEqual(
      baseline({ externalRegistration: "INCONCLUSIVE", referenceConsistency: "INCONCLUSIVE" }),
    );
  });

  it.each([
    ["with is_stub", (r: JsonObject) => void r],
    ["recognised by its JSON placeholder alone", (r: JsonObject) => void delete r.is_stub],
  ])("only a stub stamp (%s): a stub is no registration, NOT_PRESENT (§9.11)", (_, change) => {
    const input = tampered(inRecord(change), { witnesses: [{ url: TS_URL, stub: true }] });
    expectDecided(input, "externalRegistration", {
      state: "NOT_PRESENT",
      check: "witness.stub",
      subject: `manifest.cllCheckpoint.witnesses[0] ${TS_URL}`,
      detail: "stub stamp (placeholder, no receipt): never counts",
    });
    expect(checkStates(input, "externalRegistration")).toEqual([
      "witness.stub NOT_PRESENT",
      "registration.verified NOT_PRESENT",
    ]);
    // The server claims only SIGNED_RECORD without a real stamp.
    expect(statesOf(input)).toEqual(baseline({ externalRegistration: "NOT_PRESENT" }));
  });

  /** The claim EXTERNALLY_REGISTERED then has nothing to stand on: an overclaim. */
  const OVERCLAIM: Partial<States> = { externalRegistration: "NOT_PRESENT", referenceConsistency: "FAIL" };

  it.each([
    [
      "no checkpoint",
      { manifest: (m: JsonObject) => void delete m.cllCheckpoint },
      "the bundle carries no checkpoint",
      { ...OVERCLAIM, localInclusion: "NOT_PRESENT", checkpointSignature: "NOT_PRESENT" },
    ],
    [
      "no witnesses member",
      { manifest: (m: JsonObject) => void delete at(m, "cllCheckpoint").witnesses },
      "the checkpoint carries no witness stamps",
      OVERCLAIM,
    ],
    [
      "an empty witnesses list",
      { manifest: (m: JsonObject) => void (at(m, "cllCheckpoint").witnesses = []) },
      "the checkpoint carries no witness stamps",
      OVERCLAIM,
    ],
    [
      "a null witnesses member (which the checkpoint parser refuses)",
      { manifest: (m: JsonObject) => void (at(m, "cllCheckpoint").witnesses = null) },
      "the checkpoint carries no witness stamps",
      { ...OVERCLAIM, checkpointSignature: "FAIL" },
    ],
  ] as Array<[string, Tamper, string, Partial<States>]>)("NOT_PRESENT with %s", (_, tamper, detail, changes) => {
    const input = tampered(tamper);
    expectDecided(input, "externalRegistration", { state: "NOT_PRESENT", check: "registration.verified", detail });
    expect(checkStates(input, "externalRegistration")).toEqual(["registration.verified NOT_PRESENT"]);
    expect(statesOf(input)).toEqual(baseline(changes));
  });

  it("a server that claims SIGNED_RECORD and carries no witness: NOT_PRESENT, everything else honest", () => {
    const input = check(capture({ witnesses: [] }));
    expectDecided(input, "externalRegistration", { state: "NOT_PRESENT", check: "registration.verified" });
    expect(statesOf(input)).toEqual(baseline({ externalRegistration: "NOT_PRESENT" }));
  });

  it("an unsupported record profile: NOT_CHECKED", () => {
    const input = tampered({ bundle: (b) => void (b.recordProfile = OTHER_PROFILE) });
    expectDecided(input, "externalRegistration", { state: "NOT_CHECKED", check: "registration.verified" });
  });

  // SUSPECTED VERIFIER BUG: entry_hash is compared with the digest of the narrowed checkpoint and PASSes, where checkpoint.signature over the same reconstruction is INCONCLUSIVE (contract §9.1).
  it("a data part with a widened checkpoint: the entry hash holds only for the reconstruction, INCONCLUSIVE", () => {
    const input = tampered({ bundle: widenedAt(["manifest", "cllCheckpoint"]) }, { carrier: "data" });
    expect(checkOf(input, "checkpointSignature", "checkpoint.signature").state).toBe("INCONCLUSIVE");
    expectDecided(input, "externalRegistration", {
      state: "INCONCLUSIVE",
      check: "witness.entryHash",
      subject: stamp(),
    });
  });
});
