/**
 * PEAC's real signed tokens and its Wire 0.2 recipes, through the receipt verifier.
 *
 * The eight published tokens verify under their published keys, pinned by (iss, kid). The 232
 * recipes are unsigned claims with an expected verdict; each is signed here by @peac/crypto (as
 * PEAC's own harness does) and verified under the pinned signing key. PEAC runs most recipe files
 * through its envelope runner (Wire02ClaimsSchema), not verifyLocal; this verifier is verifyLocal
 * in strict mode, so a registered type without its extension group is E_EXTENSION_GROUP_REQUIRED
 * here even where the envelope verdict is valid. Every other difference is listed with its reason.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describeExternal, externalPath, readExternalText } from "../helpers/external.js";
import { verifyReceipt, type ReceiptVerdict } from "../../src/peac/receipt.js";
import { computeReceiptRef } from "../../src/peac/carrier.js";
import { envelopeIssues } from "../../src/peac/claims.js";
import { TYPE_TO_EXTENSION } from "../../src/peac/constants.js";
import { loadPeacIssuers, type TrustedPeacIssuer } from "../../src/trust/peac-issuers.js";
import { fromPlain, type JsonObject } from "../../src/json/value.js";
import { peacSigner, type PeacSigner } from "./signer.js";

const json = <T>(...p: string[]): T => JSON.parse(readExternalText(...p)) as T;

/** The members of PEAC's recipe files these tests read. */
interface Recipe {
  name: string;
  input: {
    claims: Record<string, unknown>;
    header?: Record<string, unknown>;
    header_overrides?: Record<string, unknown>;
    options?: { strictness?: string; now?: number };
    verify_options?: { issuer?: string; now?: number };
    use_wrong_key?: boolean;
    jws_size_exceeds_bytes?: number;
  };
  expected: { valid?: boolean; error_code?: string; warnings?: { code: string; pointer?: string }[] };
}

function pins(
  entries: Array<{ iss: string; kid: string; key: string }>,
  revoked: Record<string, string[]> = {},
): ReadonlyMap<string, TrustedPeacIssuer> {
  const byIss = new Map<string, Array<{ kid: string; key: string }>>();
  for (const e of entries) byIss.set(e.iss, [...(byIss.get(e.iss) ?? []), { kid: e.kid, key: e.key }]);
  const r = loadPeacIssuers(
    fromPlain({
      peacIssuers: [...byIss].map(([iss, keys]) => ({
        iss,
        keys,
        ...(revoked[iss] ? { revokedKids: revoked[iss] } : {}),
      })),
    }) as JsonObject,
  );
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

const hex = (b64u: string): string => Buffer.from(b64u, "base64url").toString("hex");
const OTHER_KEY = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";

interface Token {
  readonly name: string;
  readonly jws: string;
  readonly iss: string;
  readonly kid: string;
  readonly key: string;
  readonly iat: number;
  readonly warnings: string[];
}

function tokens(): Token[] {
  const out: Token[] = [];
  for (const name of ["ts-issued-receipt.json", "policy-binding-vector.json"]) {
    const v = json<{ jws: string; public_key_b64url: string }>(
      "peac",
      "specs",
      "conformance",
      "fixtures",
      "go-interaction-record",
      name,
    );
    // Neither test type is in PEAC's registry: type_unregistered is a warning, not a failure.
    out.push({
      name,
      jws: v.jws,
      iss: "https://crosslang-test.example.com",
      kid: "crosslang-key-1",
      key: hex(v.public_key_b64url),
      iat: 1775751954,
      warnings: ["type_unregistered /type"],
    });
  }
  const pub = json<{ iss: string; kid: string; public_key_b64u: string }>(
    "peac",
    "examples",
    "dotnet-quickstart",
    "fixtures",
    "pubkey.json",
  );
  for (const r of json<{ records: { fixture: string; jws: string }[] }>(
    "peac",
    "examples",
    "dotnet-quickstart",
    "fixtures",
    "records.json",
  ).records) {
    out.push({
      name: r.fixture,
      jws: r.jws,
      iss: pub.iss,
      kid: pub.kid,
      key: hex(pub.public_key_b64u),
      iat: 1778930298,
      warnings: [],
    });
  }
  return out;
}

describeExternal("peac", "PEAC's published signed tokens", () => {
  const all = tokens();
  it("are the eight the provenance lists", () => expect(all.length).toBe(8));
  it.each(all.map((t) => [t.name, t] as const))("%s: PASS under its pinned key; the claims are reported", (_n, t) => {
    const v = verifyReceipt(t.jws, pins([t]), undefined);
    expect([v.state, v.code, v.warnings]).toEqual(["PASS", undefined, t.warnings]);
    expect([v.claims.iss, v.claims.kid, v.claims.wire]).toEqual([t.iss, t.kid, "0.2"]);
  });
  it.each(all.map((t) => [t.name, t] as const))(
    "%s: INCONCLUSIVE with no pin, FAIL under another key or a revoked kid",
    (_n, t) => {
      const decide = (v: ReceiptVerdict) => [v.state, v.code];
      expect(decide(verifyReceipt(t.jws, pins([]), undefined))).toEqual(["INCONCLUSIVE", "E_KEY_NOT_FOUND"]);
      expect(decide(verifyReceipt(t.jws, pins([{ ...t, kid: "another-kid" }]), undefined))).toEqual([
        "INCONCLUSIVE",
        "E_KEY_NOT_FOUND",
      ]);
      expect(decide(verifyReceipt(t.jws, pins([{ ...t, key: OTHER_KEY }]), undefined))).toEqual([
        "FAIL",
        "E_INVALID_SIGNATURE",
      ]);
      expect(decide(verifyReceipt(t.jws, pins([{ ...t, kid: "current" }], { [t.iss]: [t.kid] }), undefined))).toEqual([
        "FAIL",
        "E_REVOKED_KEY_USED",
      ]);
    },
  );
  it.each(all.map((t) => [t.name, t] as const))(
    "%s: time rules only against a given time (iat − 300 s is the edge; nothing expires)",
    (_n, t) => {
      const p = pins([t]);
      expect([verifyReceipt(t.jws, p, t.iat - 301).code, verifyReceipt(t.jws, p, t.iat - 300).state]).toEqual([
        "E_NOT_YET_VALID",
        "PASS",
      ]);
      expect(verifyReceipt(t.jws, p, t.iat + 10 * 365 * 86400).state).toBe("PASS");
      expect([verifyReceipt(t.jws, p, undefined).timeChecked, verifyReceipt(t.jws, p, t.iat).timeChecked]).toEqual([
        false,
        true,
      ]);
    },
  );
  it("the cross-language token's receipt_ref is the one PEAC's Go and TypeScript code compute", () => {
    expect(computeReceiptRef(all[0]?.jws as string)).toBe(
      "sha256:8be2665c16ce9b17af5b00ef39ce0a01eee40a5d73f9d7419609b86445ed16a1",
    );
  });
  it("one changed payload character, or a non-canonical signature encoding PEAC's lenient decoder accepts, does not verify", () => {
    const t = all[0] as Token;
    const [h, p, s] = t.jws.split(".") as [string, string, string];
    const flipped = `${h}.${p.slice(0, 10)}${p[10] === "A" ? "B" : "A"}${p.slice(11)}.${s}`;
    expect(verifyReceipt(flipped, pins([t]), undefined).state).toBe("FAIL");
    const last = s[s.length - 1] as string;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sibling = alphabet[alphabet.indexOf(last) ^ 1] as string; // same 6-bit group but for the padding bits
    const v = verifyReceipt(`${h}.${p}.${s.slice(0, -1)}${sibling}`, pins([t]), undefined);
    expect([v.state, v.code]).toEqual(["FAIL", "PEAC_JWS_NONCANONICAL_B64URL"]);
  });
});

// ---------------------------------------------------------------------------------------------
// Wire 0.2 recipes
// ---------------------------------------------------------------------------------------------

const RECIPES = ["peac", "specs", "conformance", "fixtures", "wire-02"];
const KID = "2026-03-03T00:00:00Z";

function recipeFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string): void => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p, `${rel}${f}/`);
      else out.push(`${rel}${f}`);
    }
  };
  walk(externalPath(...RECIPES), "");
  return out;
}

/** Claims-parser codes verifyLocal reports as E_INVALID_FORMAT (the PEAC code stays in the detail). */
const PARSER_CODES = [
  "E_ISS_NOT_CANONICAL",
  "E_PILLARS_NOT_SORTED",
  "E_OCCURRED_AT_ON_CHALLENGE",
  "E_INVALID_EXTENSION_KEY",
];
const PARSER_CODES_NO_MESSAGE = ["E_INVALID_EXTENSION_FORMAT", "E_MISSING_REQUIRED_CLAIM", "E_KIND_UNSUPPORTED"];

/** Recipes whose verdict here differs from the recipe's, for a stated reason. */
const DIFFERENT: Record<string, { readonly state: string; readonly code?: string; readonly why: string }> = {
  "warnings.json#typ-missing-interop": {
    state: "FAIL",
    code: "E_INVALID_FORMAT",
    why: "interop mode only; the strict profile requires typ",
  },
  "dual-stack.json#wire01-receipt-rejected-by-verifyLocal": {
    state: "INCONCLUSIVE",
    code: "E_UNSUPPORTED_WIRE_VERSION",
    why: "a Wire 0.1 receipt cannot be judged by Wire 0.2 rules",
  },
  "identifier-stack/conformance.json#reject-unknown-peac-version": {
    state: "FAIL",
    code: "E_WIRE_VERSION_MISMATCH",
    why: "signed with the Wire 0.2 typ, an unknown peac_version is an incoherent token",
  },
  "validation/conformance.json#step7-reject-issuer-mismatch": {
    state: "FAIL",
    code: "E_EXTENSION_GROUP_REQUIRED",
    why: "no expected-issuer option: the trust file pins only the expected issuer, so no key is found, and the strict type rule still fails the claims",
  },
  "validation/conformance.json#reject-missing-public-key": {
    state: "FAIL",
    code: "E_EXTENSION_GROUP_REQUIRED",
    why: "no pinned key, and the strict type rule still fails the claims",
  },
  "invalid.json#reject-missing-peac-version": {
    state: "FAIL",
    code: "E_WIRE_VERSION_MISMATCH",
    why: "a schema-only recipe: signed with the Wire 0.2 typ, the token is incoherent before its claims are read",
  },
  "invalid.json#reject-wrong-peac-version": {
    state: "FAIL",
    code: "E_WIRE_VERSION_MISMATCH",
    why: "a schema-only recipe: signed with the Wire 0.2 typ, the token is incoherent before its claims are read",
  },
  "policy-binding/conformance.json#policy-binding-failed": {
    state: "FAIL",
    code: "E_EXTENSION_GROUP_REQUIRED",
    why: "no local policy digest option (binding is reported unavailable); strict type rule",
  },
  "validation/conformance.json#step3-reject-constraint-violation": {
    state: "FAIL",
    code: "E_EXTENSION_GROUP_REQUIRED",
    why: "its sub (1,648 characters) is within every PEAC limit (sub 2,048, strings 65,536), so no kernel constraint is violated; the strict type rule fails it",
  },
  "types/conformance.json#boundary-type-max-length": {
    state: "FAIL",
    code: "E_INVALID_FORMAT",
    why: "its type is 258 characters, over PEAC's own 256 (Wire02ClaimsSchema rejects it too)",
  },
};

/** Recipes that are not single signed tokens. */
const NOT_A_TOKEN: Record<string, string> = {
  "challenge.json#challenge-all-7-types": "a list of challenge types, no claims",
  "replay/conformance.json#reject-duplicate-jti-in-bundle":
    "a bundle of two receipts: covered by the Task-level duplicate-jti test",
  "validation/conformance.json#reject-missing-jws-input": "no JWS at all",
};

function expectedVerdict(key: string, fx: Recipe, claims: Record<string, unknown>): { state: string; code?: string } {
  const d = DIFFERENT[key];
  if (d) return { state: d.state, ...(d.code ? { code: d.code } : {}) };
  const e = fx.expected;
  if (e.valid === false) {
    const code = e.error_code;
    if (code === undefined || PARSER_CODES.includes(code) || PARSER_CODES_NO_MESSAGE.includes(code))
      return { state: "FAIL", code: "E_INVALID_FORMAT" };
    return { state: "FAIL", code };
  }
  const expectedGroup = TYPE_TO_EXTENSION.get(claims.type as string);
  const ext = (claims.extensions ?? {}) as Record<string, unknown>;
  if (claims.kind === "evidence" && expectedGroup !== undefined && !(expectedGroup in ext))
    return { state: "FAIL", code: "E_EXTENSION_GROUP_REQUIRED" };
  return { state: "PASS" };
}

async function signRecipe(s: PeacSigner, wrong: PeacSigner, fx: Recipe): Promise<string> {
  const input = fx.input;
  const header: Record<string, unknown> = input.header
    ? { ...input.header }
    : { typ: "interaction-record+jwt", alg: "EdDSA", kid: KID };
  for (const [k, v] of Object.entries(input.header_overrides ?? {})) {
    if (v === null) delete header[k];
    else header[k] = v;
  }
  if (input.options?.strictness === "interop") delete header.typ;
  let claims = input.claims;
  if (input.jws_size_exceeds_bytes !== undefined)
    claims = {
      ...claims,
      sub: undefined,
      extensions: { "com.example/padding": { p: "x".repeat(input.jws_size_exceeds_bytes) } },
    };
  return (input.use_wrong_key ? wrong : s).signRaw(header, claims);
}

describeExternal("peac", "PEAC Wire 0.2 recipes, signed by @peac/crypto and verified under the pinned key", () => {
  const files = recipeFiles();
  const cases: Array<[string, Recipe]> = [];
  for (const f of files)
    for (const fx of json<{ fixtures: Recipe[] }>(...RECIPES, f).fixtures) cases.push([`${f}#${fx.name}`, fx]);
  it("are the 232 the provenance lists", () => expect(cases.length).toBe(232));
  it("every exception is a recipe that exists", () => {
    const keys = new Set(cases.map(([k]) => k));
    for (const k of [...Object.keys(DIFFERENT), ...Object.keys(NOT_A_TOKEN)]) expect(keys.has(k), k).toBe(true);
  });

  it.each(cases.filter(([k]) => !(k in NOT_A_TOKEN)))("%s", async (key, fx) => {
    const claims = fx.input.claims;
    const iss = typeof claims.iss === "string" ? claims.iss : "https://api.example.com";
    const kid = (fx.input.header?.kid as string | undefined) ?? KID;
    const s = await peacSigner("recipes", iss, kid);
    const wrong = await peacSigner("recipes, wrong key", iss, kid);
    const jws = await signRecipe(s, wrong, fx);
    const expectedIssuer = fx.input.verify_options?.issuer;
    const pinned = pins([
      { iss: expectedIssuer ?? "https://api.example.com", kid, key: s.publicKeyHex },
      ...(iss !== "https://api.example.com" && !expectedIssuer && isPinnable(iss)
        ? [{ iss, kid, key: s.publicKeyHex }]
        : []),
    ]);
    const now = fx.input.verify_options?.now ?? fx.input.options?.now;
    const v = verifyReceipt(
      jws,
      key === "validation/conformance.json#reject-missing-public-key" ? pins([]) : pinned,
      now,
    );
    const expected = expectedVerdict(key, fx, claims);
    expect({ state: v.state, code: v.code }).toEqual({ state: expected.state, code: expected.code });
    const pe = fx.expected.error_code;
    if (pe && PARSER_CODES.includes(pe)) expect(v.detail).toContain(pe);
    if (expected.state === "PASS" && fx.expected.warnings) {
      expect(v.warnings).toEqual(fx.expected.warnings.map((w) => (w.pointer ? `${w.code} ${w.pointer}` : w.code)));
    }
  });
});

/** The recipes' issuers that a trust file can pin (canonical ones); the others are the negatives. */
function isPinnable(iss: string): boolean {
  return (
    pins.length >= 0 &&
    envelopeIssues(
      fromPlain({ peac_version: "0.2", kind: "evidence", type: "com.example/x", iss, iat: 0, jti: "j" }) as JsonObject,
    ).length === 0
  );
}

describe("duplicate-jti recipe, as a bundle", () => {
  it("is carried by the Task-level duplicate test", () =>
    expect(NOT_A_TOKEN["replay/conformance.json#reject-duplicate-jti-in-bundle"]).toMatch(/Task-level/));
});
