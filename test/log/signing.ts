/**
 * Test-only CLL checkpoint signer. The signing body is built with the `canonicalize` package
 * (RFC 8785), which equals pyjson for the ASCII, float-free members used here, so the checkpoint
 * code is checked against an independent serializer rather than against itself.
 */
import canonicalize from "canonicalize";
import { createHash, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { fromPlain, type JsonObject } from "../../src/json/value.js";

export interface PlainCheckpoint {
  v: number;
  kind: string;
  log_id: string;
  mmr_size: number;
  root: string;
  prev_size: number;
  prev_root: string;
  key_id: string;
  timestamp: string;
}

export class TestSigner {
  private readonly privateKey: KeyObject;
  readonly keyId: string;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    this.privateKey = privateKey;
    const x = publicKey.export({ format: "jwk" }).x as string;
    this.keyId = Buffer.from(x, "base64url").toString("hex");
  }

  /** Ed25519 over the ASCII digest hex, as §4.2 step 3 says. */
  signDigestHex(digestHex: string): string {
    return sign(null, Buffer.from(digestHex, "ascii"), this.privateKey).toString("hex");
  }

  /** A signed checkpoint: `fields` over first-checkpoint defaults, then `extra` unsigned members. */
  checkpoint(fields: Partial<PlainCheckpoint>, extra: Record<string, unknown> = {}): JsonObject {
    const signed: PlainCheckpoint = {
      v: 1,
      kind: "mmr_checkpoint",
      log_id: "test-log",
      mmr_size: 1,
      root: "ab".repeat(32),
      prev_size: 0,
      prev_root: "",
      key_id: this.keyId,
      timestamp: "2026-01-01T00:00:00.000000Z",
      ...fields,
    };
    const digestHex = createHash("sha256")
      .update(canonicalize(signed) as string)
      .digest("hex");
    return fromPlain({ ...signed, signature: this.signDigestHex(digestHex), ...extra }) as JsonObject;
  }
}
