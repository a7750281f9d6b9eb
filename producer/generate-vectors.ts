/**
 * Writes the conformance vectors: `npx tsx producer/generate-vectors.ts [outDir]` (default
 * `vectors/` at the repository root). Deterministic — no clock, no randomness — so regenerating
 * must leave a clean checkout unchanged.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { renderAll } from "./render.js";
import { GENERAL_NOTES, VECTORS } from "./vectors.js";

const outDir = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "vectors"));
const files = renderAll(VECTORS, GENERAL_NOTES);
for (const [path, text] of files) {
  const target = join(outDir, path);
  mkdirSync(dirname(target), { recursive: true });
  if (typeof text === "string") writeFileSync(target, text, "utf8");
  else writeFileSync(target, text);
}
process.stdout.write(`wrote ${files.size} files for ${VECTORS.length} vectors to ${outDir}\n`);
