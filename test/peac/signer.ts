/**
 * An independent PEAC signer for tests: @peac/crypto (PEAC's own package) issues Wire 0.2
 * receipts with signWire02, and signs raw header/payload pairs for the negatives signWire02
 * refuses to make, as PEAC's conformance harness does. Nothing here comes from src/peac.
 */
import { base64urlEncode, ed25519Sign, signWire02 } from "@peac/crypto";
import { generateKeypairFromSeed } from "@peac/crypto/testkit";
import { createHash } from "node:crypto";

export interface PeacSigner {
  readonly iss: string;
  readonly kid: string;
  readonly publicKeyHex: string;
  readonly publicKey: Uint8Array;
  /** signWire02: PEAC's issuer path (fixed header, I-JSON checked). */
  sign(claims: Record<string, unknown>): Promise<string>;
  /** Any header and payload, JSON.stringify'd and signed as given. */
  signRaw(header: Record<string, unknown>, payload: unknown): Promise<string>;
  /** Header and payload JSON texts signed byte for byte. */
  signText(header: string, payload: string): Promise<string>;
}

export async function peacSigner(label: string, iss: string, kid: string): Promise<PeacSigner> {
  const seed = new Uint8Array(createHash("sha256").update(`peac test signer: ${label}`).digest());
  const { privateKey, publicKey } = await generateKeypairFromSeed(seed);
  const b64 = (text: string): string => base64urlEncode(new TextEncoder().encode(text));
  const signText = async (header: string, payload: string): Promise<string> => {
    const input = `${b64(header)}.${b64(payload)}`;
    const sig = await ed25519Sign(new TextEncoder().encode(input), privateKey);
    return `${input}.${base64urlEncode(sig)}`;
  };
  return {
    iss,
    kid,
    publicKey,
    publicKeyHex: Buffer.from(publicKey).toString("hex"),
    sign: (claims) => signWire02(claims, privateKey, kid),
    signRaw: (header, payload) => signText(JSON.stringify(header), JSON.stringify(payload)),
    signText,
  };
}

export const PEAC_URI = "https://www.peacprotocol.org/ext/traceability/v1";

export function receiptRef(jws: string): string {
  return `sha256:${createHash("sha256").update(jws, "utf8").digest("hex")}`;
}

export function carrierOf(jws: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { receipt_ref: receiptRef(jws), receipt_jws: jws, ...extra };
}

export function peacPayload(...carriers: Record<string, unknown>[]): Record<string, unknown> {
  return { carriers, meta: { transport: "a2a", format: "embed", max_size: 65536 } };
}

export function issuerEntry(s: PeacSigner, revokedKids: string[] = []): Record<string, unknown> {
  return {
    iss: s.iss,
    keys: [{ kid: s.kid, key: s.publicKeyHex }],
    ...(revokedKids.length > 0 ? { revokedKids } : {}),
  };
}

/** Wire 0.2 claims an issuer would sign: an unregistered type, so no extension group is owed. */
export function claims(s: PeacSigner, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    peac_version: "0.2",
    kind: "evidence",
    type: "com.example/task-step",
    iss: s.iss,
    iat: 1790846990,
    jti: "test-jti-1",
    ...overrides,
  };
}
