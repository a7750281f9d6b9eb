#!/usr/bin/env node
// Launcher: runs the bundled CLI (dist/a2a-evidence.cjs, with its V8 code cache). Both are built
// by `npm install` / `npm ci` (the "prepare" script) or `npm run build`.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadBundle } from "./load-bundle.mjs";

const bundle = fileURLToPath(new URL("../dist/a2a-evidence.cjs", import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write(
    "a2a-evidence: this checkout is not built (dist/ is missing).\n" +
      "Run `npm ci` (or `npm install`, or `npm run build`) in the package folder, then try again.\n",
  );
  process.exitCode = 2;
} else {
  const { exports } = loadBundle(bundle, fileURLToPath(new URL("../dist/a2a-evidence.cache", import.meta.url)));
  process.exitCode = await exports.main(process.argv.slice(2));
}
