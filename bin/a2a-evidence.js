#!/usr/bin/env node
// Launcher: runs the compiled CLI. The TypeScript sources are compiled into dist/ by
// `npm install` / `npm ci` (the "prepare" script) or `npm run build`.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const entry = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(
    "a2a-evidence: this checkout is not built (dist/ is missing).\n" +
      "Run `npm ci` (or `npm install`, or `npm run build`) in the package folder, then try again.\n",
  );
  process.exitCode = 2;
} else {
  const { main } = await import(entry.href);
  process.exitCode = await main(process.argv.slice(2));
}
