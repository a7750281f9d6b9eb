#!/usr/bin/env node
// The crypto + hash floor of one bundle: the node:crypto work verifying it cannot avoid, replayed
// from plan.json (written by bench/inputs.ts from what the producer built). Each key the trust
// file gives is imported once, as a run does, the cheapest way node:crypto has (from its raw key
// or coordinates, as a JWK: as SPKI DER or PEM the same import costs about three times as much).
// The bundles of a run are verified under the same keys, so an import is no part of a bundle's
// floor, as it is no part of what the verifier spends on a bundle once the trust file is loaded.
// Each signature is verified over a message of the bundle's length (fresh keys: Ed25519 and ECDSA
// verification take the same time whatever the key), and each SHA-256 call made over as many
// bytes as the bundle's, one-shot, its digest given as latin1 text (asked for a Buffer, the same
// call costs more than twice as much).
//
//   node bench/floor.mjs <plan.json> <bundles>    does the floor <bundles> times, as a CLI run would
//
// Imported by bench/inprocess.mjs to time the same work in-process.
import { createPublicKey, generateKeyPairSync, hash, randomBytes, sign, verify } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Everything the floor needs, made once: key material, signed messages, hash inputs. */
export function prepareFloor(plan) {
  const ed = generateKeyPairSync("ed25519");
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
  // The coordinates as the import takes them: the trust file's raw hex or PEM body, decoded, is
  // the same bytes (the decoding is the verifier's own work, not node:crypto's).
  const edJwk = ed.publicKey.export({ format: "jwk" });
  const ecJwk = ec.publicKey.export({ format: "jwk" });
  const keys = plan.keys.map((k) =>
    k.form === "spki-pem"
      ? { p256: { kty: "EC", crv: "P-256", x: ecJwk.x, y: ecJwk.y } }
      : { ed25519: { kty: "OKP", crv: "Ed25519", x: edJwk.x } },
  );
  let ed25519Key;
  let p256Key;
  for (const k of keys) {
    if (k.p256) p256Key = createPublicKey({ key: k.p256, format: "jwk" });
    else ed25519Key = createPublicKey({ key: k.ed25519, format: "jwk" });
  }
  const signatures = plan.signatures.map((s) => {
    const message = randomBytes(s.bytes);
    return s.alg === "ES256"
      ? { alg: s.alg, message, signature: sign("sha256", message, { key: ec.privateKey, dsaEncoding: "ieee-p1363" }) }
      : { alg: s.alg, message, signature: sign(null, message, ed.privateKey) };
  });
  const hashes = [];
  for (const h of plan.sha256) for (let i = 0; i < h.count; i++) hashes.push(randomBytes(h.bytes));

  /** One bundle's floor; throws if a signature does not verify (the floor must do real work). */
  function one() {
    for (const s of signatures) {
      const ok =
        s.alg === "ES256"
          ? verify("sha256", s.message, { key: p256Key, dsaEncoding: "ieee-p1363" }, s.signature)
          : verify(null, s.message, ed25519Key, s.signature);
      if (!ok) throw new Error(`floor: a ${s.alg} signature did not verify`);
    }
    let x = 0;
    for (const b of hashes) x ^= hash("sha256", b, "latin1").charCodeAt(0);
    return x;
  }
  return {
    one,
    counts: {
      signatures: signatures.length,
      keys: keys.length,
      sha256: hashes.length,
      sha256Bytes: hashes.reduce((n, b) => n + b.length, 0),
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [planFile, n] = process.argv.slice(2);
  const floor = prepareFloor(JSON.parse(readFileSync(planFile, "utf8")));
  let x = 0;
  for (let i = 0; i < Number(n); i++) x ^= floor.one();
  // The result is printed so no work is dead.
  process.stdout.write(`${x}\n`);
}
