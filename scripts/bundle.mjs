#!/usr/bin/env node
// Builds the command line into one file, dist/a2a-evidence.cjs, and V8 code caches for it:
// dist/a2a-evidence.cache, and dist/a2a-evidence.worker.cache for --jobs worker threads. A CI gate
// runs the CLI once per Task, so start-up is most of its cost: resolving and compiling a few
// hundred separate modules took several times Node's own start-up; one bundled file whose
// compiled code comes from the cache starts close to bare Node. The cache is made here by
// verifying shipped vectors in-process first, so the functions a run needs are in it. A cache
// Node rejects (another V8) is ignored at run time and costs only speed.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

const { loadBundle, tuneV8, sustainV8, BUNDLE_HEAD } = createRequire(import.meta.url)("../bin/a2a-evidence.cjs");

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outfile = join(root, "dist", "a2a-evidence.cjs");

await build({
  entryPoints: [join(root, "src", "cli", "main.ts")],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outfile,
  minify: true,
  legalComments: "none",
  // The file is the CommonJS wrapper the launcher compiles, whole: it reads it and hands it to V8
  // without building a second copy. ASCII only (esbuild escapes the rest), so it reads as latin1.
  banner: { js: BUNDLE_HEAD },
  footer: { js: "})" },
  charset: "ascii",
  logLevel: "warning",
  // src/cli/vectors.ts reads __filename in the bundle and import.meta.url only as an ES module.
  logOverride: { "empty-import-meta": "silent" },
  plugins: [lazyBuiltins(["child_process"])],
});

/**
 * commander requires node:child_process at load time for executable subcommands, which this CLI
 * does not have; loading it costs a noticeable share of start-up. The bundle gets a stand-in that
 * loads the real module only if a property of it is ever read.
 */
function lazyBuiltins(names) {
  const filter = new RegExp(`^(node:)?(${names.join("|")})$`);
  return {
    name: "lazy-builtins",
    setup(b) {
      b.onResolve({ filter }, (args) =>
        args.namespace === "lazy-builtin"
          ? undefined
          : { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin" },
      );
      b.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({
        contents: `let real; const load = () => (real ??= require("node:${args.path}")); module.exports = new Proxy({}, { get: (_, k) => load()[k], has: (_, k) => k in load() });`,
        loader: "js",
      }));
    },
  };
}

// Read as latin1 by the launcher: one byte outside ASCII would be misread, so none may be there.
if (/[^\x00-\x7f]/.test(readFileSync(outfile, "latin1"))) throw new Error(`${outfile} is not ASCII`);

const { exports, script } = loadBundle(outfile);
const quiet = { stdout: () => {}, stderr: () => {}, env: {}, stdoutIsTTY: false };
for (const name of ["valid-capture", "valid-rich", "valid-data-part", "valid-stream-sse-jsonrpc"]) {
  const dir = join(root, "vectors", name);
  const input = join(dir, name.startsWith("valid-stream") ? "input.sse" : "input.json");
  for (const format of ["text", "json"])
    await exports.main(["verify", "--format", format, "-v", "--trust", join(dir, "trust.json"), input], quiet);
}
writeFileSync(join(root, "dist", "a2a-evidence.cache"), script.createCachedData());
// --jobs worker threads load the bundle after the CLI has tuned V8's flags, which a cache
// records: theirs is made under the same flags. Not quite the flags tuneV8 sets: setting up a
// worker's heap raises --semi-space-growth-factor back to V8's least, 2, for the whole process,
// and a cache made before any worker started is rejected in every one. So one is started first.
// A --jobs run starts its workers once it has turned the baseline compiler back on (sustainV8).
tuneV8();
sustainV8();
await new Promise((resolve, reject) => new Worker("", { eval: true }).once("exit", resolve).once("error", reject));
writeFileSync(join(root, "dist", "a2a-evidence.worker.cache"), script.createCachedData());
