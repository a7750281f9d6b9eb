/**
 * A file given as --trust that is not a trust file is named for what it is (contract §9.38): a
 * PEM private key, a PEM public key, a bundle or another A2A input. Without --trust, the exit-3
 * reason says to pass one.
 */
import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempFile } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/external.js";

const MINIMAL = join(REPO_ROOT, "vectors", "valid-minimal", "input.json");
const MINIMAL_TRUST = join(REPO_ROOT, "vectors", "valid-minimal", "trust.json");

async function trustError(trust: string): Promise<{ code: number; error: { code: string; message: string } }> {
  const r = await runCli(["verify", "--format", "json", "--trust", trust, MINIMAL]);
  return { code: r.code, error: JSON.parse(r.stdout).error };
}

describe("a file given as --trust that is not a trust file", () => {
  it("a PEM private key is named as a private key", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const pem = tempFile("key.pem", privateKey.export({ format: "pem", type: "pkcs8" }));
    const r = await trustError(pem);
    expect(r.code).toBe(2);
    expect(r.error.code).toBe("TRUST_PRIVATE_KEY");
    expect(r.error.message).toMatch(/^this is a private key \(PEM "PRIVATE KEY"\), not a trust file: /);
    const pub = tempFile("key.pub.pem", publicKey.export({ format: "pem", type: "spki" }));
    const p = await trustError(pub);
    expect(p.error).toMatchObject({ code: "TRUST_NOT_JSON" });
    expect(p.error.message).toMatch(/^this is a PEM "PUBLIC KEY", not a trust file: /);
    // The text report says it, too.
    const text = await runCli(["verify", "--trust", pem, MINIMAL]);
    expect(text.stdout).toContain("TRUST_PRIVATE_KEY: this is a private key");
  });

  it("a bundle, a GetTask response or a stream is named as an A2A input", async () => {
    const response = JSON.parse(readFileSync(MINIMAL, "utf8"));
    const bundle = tempFile("bundle.json", Buffer.from(response.result.artifacts[1].parts[0].raw, "base64"));
    const b = await trustError(bundle);
    expect(b.code).toBe(2);
    expect(b.error.code).toBe("TRUST_SCHEMA");
    expect(b.error.message).toMatch(/^this is an A2A input \(an evidence bundle\), not a trust file: /);
    const t = await trustError(MINIMAL);
    expect(t.error.message).toMatch(/^this is an A2A input \(a JSON-RPC GetTask response\), not a trust file: /);
    const stream = tempFile("events.json", JSON.stringify([{ task: response.result }]));
    expect((await trustError(stream)).error.message).toMatch(/^this is an A2A input \(a stream of A2A events\)/);
  });

  it("a JSON object of neither shape keeps the schema message", async () => {
    const r = await trustError(tempFile("other.json", '{"producers": []}'));
    expect(r.error).toMatchObject({
      code: "TRUST_SCHEMA",
      message: 'expected "version": 1 (or the reference shape {authorizedSigners, tsPubkeysB64})',
    });
  });

  it("without --trust the reason says to pass one; a trust file with no producers says so", async () => {
    const r = await runCli(["verify", "--format", "json", MINIMAL]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).inputs[0].reasons).toContain(
      "no producer key is pinned: anyone could have made this record; pass --trust with a trust file that pins the producer's key",
    );
    const trust = JSON.parse(readFileSync(MINIMAL_TRUST, "utf8"));
    const empty = tempFile("trust.json", JSON.stringify({ ...trust, producers: [] }));
    const e = await runCli(["verify", "--format", "json", "--trust", empty, MINIMAL]);
    expect(JSON.parse(e.stdout).inputs[0].reasons).toContain(
      "no producer key is pinned: anyone could have made this record; the trust file lists no producers",
    );
  });
});
