#!/usr/bin/env node
// `npm run bench -- --vectors`: the per-vector table. How much verifying each shipped vector costs
// in-process (wall clock, after warm-up) compared with the signature checks it makes. Runs the
// built library (npm run build first) over the shipped vectors and, when present, the published
// reference vector; prints per-input time, the cost of the same number of bare Ed25519
// verifications, and the ratio. Numbers, not assertions. The project's goals are measured by
// bench/run.mjs (docs/performance.md).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateKeyPairSync, sign, verify as cryptoVerify } from "node:crypto";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist", "index.js");
if (!existsSync(dist)) {
  console.error("bench: dist/ is missing; run `npm run build` first");
  process.exit(2);
}
const { verify } = await import(dist);

const cases = [];
const vectorsDir = join(root, "vectors");
for (const name of readdirSync(vectorsDir).sort()) {
  const dir = join(vectorsDir, name);
  if (!existsSync(join(dir, "input.json"))) continue;
  cases.push({
    name,
    input: readFileSync(join(dir, "input.json")),
    trust: existsSync(join(dir, "trust.json")) ? readFileSync(join(dir, "trust.json")) : undefined,
  });
}
const reference = join(root, "..", "shared", "vectors", "external", "a2a-reference", "positive_vector.json");
if (existsSync(reference)) {
  const bytes = readFileSync(reference);
  const trust = Buffer.from(JSON.stringify(JSON.parse(bytes.toString("utf8")).trustConfig));
  cases.push({ name: "a2a-reference/positive_vector", input: bytes, trust });
}

const SIGNATURE_CHECKS = new Set(["envelope.verify", "checkpoint.signature", "witness.signature", "chain.link"]);

function timeIt(fn, minMs = 300) {
  for (let i = 0; i < 20; i++) fn(); // warm up
  let n = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < BigInt(minMs) * 1_000_000n) {
    fn();
    n++;
    elapsed = process.hrtime.bigint() - start;
  }
  return Number(elapsed) / n / 1000; // µs per call
}

const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const message = Buffer.alloc(125, 7);
const signature = sign(null, message, privateKey);
const oneVerify = timeIt(() => cryptoVerify(null, message, publicKey, signature));

console.log(`one Ed25519 verification: ${oneVerify.toFixed(1)} µs\n`);
console.log(
  `${"input".padEnd(44)} ${"verify µs".padStart(10)} ${"sigs".padStart(5)} ${"floor µs".padStart(9)} ${"ratio".padStart(6)}`,
);
for (const c of cases) {
  const request = { inputs: [{ source: c.name, data: c.input }], ...(c.trust ? { trust: c.trust } : {}) };
  const report = verify(request);
  const input = report.inputs[0];
  const sigs = input.properties
    ? Object.values(input.properties)
        .flatMap((p) => p.checks)
        .filter((ch) => SIGNATURE_CHECKS.has(ch.id) && (ch.state === "PASS" || ch.state === "FAIL")).length
    : 0;
  const us = timeIt(() => verify(request));
  const floor = sigs * oneVerify;
  console.log(
    `${c.name.padEnd(44)} ${us.toFixed(1).padStart(10)} ${String(sigs).padStart(5)} ${floor.toFixed(1).padStart(9)} ${(floor > 0 ? (us / floor).toFixed(2) : "-").padStart(6)}`,
  );
}
console.log("\nverify µs includes parsing, trust-file loading (schema + key import) and all twelve properties.");
