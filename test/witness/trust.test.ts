/** The trust file's `witnesses` and `continuityPolicy` (contract §9.22; continuity-witness.md §4.2 A.3). */
import { describe, expect, it } from "vitest";
import { fromPlain } from "../../src/json/value.js";
import { DEFAULT_CONTINUITY_POLICY, loadTrustConfig } from "../../src/trust/config.js";
import { bytesToBase64, bytesToHex, concatBytes } from "../../src/util/bytes.js";
import { noteKeyId } from "../../src/witness/note.js";
import { CllWitness } from "../../producer/witness.js";
import { ed25519FromSeed, seedFromLabel } from "../../producer/ed25519.js";

const w1 = new CllWitness("witness.example/w1", ed25519FromSeed(seedFromLabel("trust w1")), new Map());
const w2 = new CllWitness("witness.example/w2", ed25519FromSeed(seedFromLabel("trust w2")), new Map());
const STATEMENTS = ["cll-mmr-consistency/v1"];
const entry = (extra: Record<string, unknown> = {}) => ({
  name: w1.name,
  keys: [w1.vkey],
  operator: "independent",
  statements: STATEMENTS,
  ...extra,
});
const load = (v: unknown) => loadTrustConfig(fromPlain(v));
function failure(v: unknown): { code: string; path?: string; detail: string } {
  const r = load(v);
  if (r.ok) throw new Error("expected a failure");
  return r;
}

describe("trust file: witnesses", () => {
  it("loads a vkey and a raw key, with operatorId defaulting to the name and the policy to the contract's defaults", () => {
    const r = load({
      version: 1,
      witnesses: [
        entry({ id: "w1", operatorId: "org-1" }),
        { name: w2.name, keys: [w2.signer.publicKeyHex], operator: "producer", statements: [] },
      ],
    });
    if (!r.ok) throw new Error(r.detail);
    expect(
      r.value.witnesses.map((w) => [w.id, w.name, w.operator, w.operatorId, w.keys[0]?.keyIdHex, w.keys[0]?.path]),
    ).toEqual([
      ["w1", w1.name, "independent", "org-1", w1.keyIdHex, "witnesses[0].keys[0]"],
      [undefined, w2.name, "producer", w2.name, w2.keyIdHex, "witnesses[1].keys[0]"],
    ]);
    expect(r.value.continuityPolicy).toEqual({
      quorum: 1,
      requirePriorCosigned: true,
      acceptGenesis: false,
      maxFutureSkewSeconds: 300,
    });
    expect(DEFAULT_CONTINUITY_POLICY.requirePriorCosigned).toBe(true);
  });

  it("reads every continuityPolicy member, defaults the rest", () => {
    const r = load({ version: 1, continuityPolicy: { quorum: 3, acceptGenesis: true } });
    expect(r.ok && r.value.continuityPolicy).toEqual({
      quorum: 3,
      requirePriorCosigned: true,
      acceptGenesis: true,
      maxFutureSkewSeconds: 300,
    });
  });

  it.each([
    [
      "name missing",
      { version: 1, witnesses: [{ keys: [w1.vkey], operator: "independent", statements: STATEMENTS }] },
      "TRUST_SCHEMA",
      "witnesses[0]",
    ],
    [
      "statements missing",
      { version: 1, witnesses: [{ name: w1.name, keys: [w1.vkey], operator: "independent" }] },
      "TRUST_SCHEMA",
      "witnesses[0]",
    ],
    [
      "operator missing",
      { version: 1, witnesses: [{ name: w1.name, keys: [w1.vkey], statements: STATEMENTS }] },
      "TRUST_SCHEMA",
      "witnesses[0]",
    ],
    [
      "the old shape {id, keys, operator}",
      { version: 1, witnesses: [{ id: "w", keys: [w1.signer.publicKeyHex], operator: "independent" }] },
      "TRUST_SCHEMA",
      "witnesses[0]",
    ],
    [
      "a PEM key",
      { version: 1, witnesses: [entry({ keys: [w1.signer.publicKeyPem] })] },
      "TRUST_SCHEMA",
      "witnesses[0].keys[0]",
    ],
    ["an unknown member", { version: 1, witnesses: [entry({ url: "https://w" })] }, "TRUST_SCHEMA", "witnesses[0]"],
    [
      "a name with a space",
      { version: 1, witnesses: [entry({ name: "witness example" })] },
      "TRUST_SCHEMA",
      "witnesses[0].name",
    ],
    [
      "a vkey of another name",
      { version: 1, witnesses: [entry({ name: "witness.example/other" })] },
      "TRUST_KEY_INVALID",
      "witnesses[0].keys[0]",
    ],
    [
      "a vkey whose key ID is wrong",
      { version: 1, witnesses: [entry({ keys: [w1.vkey.replace(/\+[0-9a-f]{8}\+/, "+00000000+")] })] },
      "TRUST_KEY_INVALID",
      "witnesses[0].keys[0]",
    ],
    [
      "one key for two witnesses (a cosignature does not name its signer)",
      {
        version: 1,
        witnesses: [entry(), { ...entry(), name: "witness.example/alias", keys: [w1.signer.publicKeyHex] }],
      },
      "TRUST_DUPLICATE_ENTRY",
      "witnesses[1].keys[0]",
    ],
    [
      "one key twice",
      { version: 1, witnesses: [entry({ keys: [w1.vkey, w1.signer.publicKeyHex] })] },
      "TRUST_DUPLICATE_ENTRY",
      "witnesses[0].keys[1]",
    ],
    [
      "an id twice",
      {
        version: 1,
        witnesses: [
          entry({ id: "w" }),
          { name: w2.name, keys: [w2.vkey], operator: "independent", statements: [], id: "w" },
        ],
      },
      "TRUST_DUPLICATE_ENTRY",
      "witnesses[1].id",
    ],
    [
      "a statement twice",
      { version: 1, witnesses: [entry({ statements: [...STATEMENTS, ...STATEMENTS] })] },
      "TRUST_SCHEMA",
      "witnesses[0].statements",
    ],
    ["quorum 0", { version: 1, continuityPolicy: { quorum: 0 } }, "TRUST_SCHEMA", "continuityPolicy.quorum"],
    ["quorum 1.5", { version: 1, continuityPolicy: { quorum: 1.5 } }, "TRUST_SCHEMA", "continuityPolicy.quorum"],
    [
      "a negative skew",
      { version: 1, continuityPolicy: { maxFutureSkewSeconds: -1 } },
      "TRUST_SCHEMA",
      "continuityPolicy.maxFutureSkewSeconds",
    ],
    [
      "an unknown policy member",
      { version: 1, continuityPolicy: { quorum: 1, mode: "any" } },
      "TRUST_SCHEMA",
      "continuityPolicy",
    ],
  ])("refuses %s", (_, v, code, path) => {
    const r = failure(v);
    expect([r.code, r.path]).toEqual([code, path]);
  });

  it("refuses a type-0x01 (note-signing) vkey for a witness rather than converting it", () => {
    const raw = w1.signer.publicKeyRaw;
    const id = bytesToHex(noteKeyId(w1.name, 0x01, raw));
    const r = failure({
      version: 1,
      witnesses: [entry({ keys: [`${w1.name}+${id}+${bytesToBase64(concatBytes(Uint8Array.of(0x01), raw))}`] })],
    });
    expect([r.code, r.path]).toEqual(["TRUST_KEY_INVALID", "witnesses[0].keys[0]"]);
    expect(r.detail).toMatch(
      /^a note-signing \(type 0x01\) verifier key: a witness cosigns with type 0x04, whose key ID differs \(VKEY_TYPE_UNSUPPORTED\)$/,
    );
  });

  it("names the key forms a witness key may take", () => {
    expect(failure({ version: 1, witnesses: [entry({ keys: ["not a key"] })] }).detail).toBe(
      "not a 64-hex raw Ed25519 key or a cosignature/v1 verifier key <name>+<key ID>+<base64>",
    );
  });
});
