#!/usr/bin/env node
// Launcher: runs the bundled CLI (dist/a2a-evidence.cjs) with its V8 code cache, so the compiled
// code comes from the cache instead of being parsed and compiled at every start. A cache that
// does not fit this Node (another V8) is rejected by V8 and the code compiles as usual. Both files
// are built by `npm run build` (and by `npm pack` / `npm publish`, the "prepack" script, so the
// package ships them and installing it runs no script). CommonJS on purpose: it starts without
// Node's ES module loader.
"use strict";
const { closeSync, existsSync, fstatSync, openSync, readSync } = require("node:fs");
const { dirname, join } = require("node:path");
const vm = require("node:vm");

const bundle = join(__dirname, "..", "dist", "a2a-evidence.cjs");
/**
 * How the bundle begins: the build writes it as the CommonJS module wrapper this file compiles,
 * whole, so it is handed to V8 as read, with no second copy; ASCII only, so it reads as latin1.
 */
const BUNDLE_HEAD = "(function (exports, require, module, __filename, __dirname) {";
/**
 * Node's modules a verification loads that the bundle does not load as it starts: they are
 * loaded before tuneV8, while Node's own compiled code for them still fits V8's flags. Loaded
 * after, each would be parsed and compiled from its source: for node:crypto's sixteen modules
 * that was about a sixth of a one-input run's CPU above bare Node. A module a rarer path needs
 * (standard input, worker threads, a stderr that is a pipe) is still compiled when it is used.
 */
const PRELOADED = ["node:crypto", "node:os"];
/** The flags sustainV8 and manyInputsV8 have set: each is set once, however often it is asked for. */
const flagsSet = new Set();
// A --jobs worker thread is started on this file with this argument: it serves inputs instead.
const isWorker = process.argv.includes("--a2a-evidence-job-worker");
if (require.main !== module && !isWorker) {
  // Required by the build, to make the code cache with the very loader that uses it.
} else if (!existsSync(bundle)) {
  process.stderr.write(
    "a2a-evidence: this checkout is not built (dist/ is missing).\n" +
      "Run `npm run build` in the package folder (after `npm ci`), then try again.\n",
  );
  process.exitCode = 2;
} else if (isWorker) {
  // Worker threads start after the main thread has tuned V8's flags (see tuneV8): their code
  // cache is the one the build made under the tuned flags.
  void loadBundle(bundle, join(__dirname, "..", "dist", "a2a-evidence.worker.cache")).exports.runJobWorker();
} else {
  const { exports } = loadBundle(bundle, join(__dirname, "..", "dist", "a2a-evidence.cache"));
  for (const builtin of PRELOADED) require(builtin);
  tuneV8();
  exports
    .main(process.argv.slice(2), undefined, {
      workerEntry: __filename,
      sustained: sustainV8,
      manyInputs: manyInputsV8,
    })
    .then((code) => {
      // A write error may already have set 2 (see the CLI's output guard); never lower it.
      if (process.exitCode === undefined || process.exitCode === 0) process.exitCode = code;
    });
}

/**
 * Four of V8's defaults are tuned for long-lived pages, and a verification run is not one:
 *   - V8 moves a function to its optimizing compiler once it has run for a few rounds of a fixed
 *     budget. A run calls most of its functions a few times per input: at the default, a run
 *     over a few hundred inputs spent about a fifth of its CPU compiling code that was then used
 *     a handful of times. A budget 15× the default still optimizes what is hot (the parser's,
 *     hashing and proof loops) in a run long enough to repay it: against 4.4×, a run over 51
 *     inputs costs about 6% less CPU, over 201 inputs 3 to 4%, over 1,000 inputs 3%.
 *   - V8 doubles its young generation whenever much of it survives a collection: a run over
 *     2,000 inputs peaked about 40 MB above one over 200, with its live data flat at about
 *     10 MB. Kept at its first size, peak memory stays flat whatever the number of inputs, for
 *     a few percent more CPU on the largest runs. (V8's least factor is 2: it puts it back for
 *     the whole process when it sets up a worker's heap, so a --jobs run grows as by default,
 *     and its workers' code cache is made under that flag; see scripts/bundle.mjs.)
 *   - V8 splits each young-generation collection among helper threads. With the young
 *     generation this small a collection is short, and waking the helpers costs more CPU than
 *     sharing the work saves: on one thread a 200-input run costs a few percent less.
 *   - V8 compiles a function that has run for a while to baseline machine code (Sparkplug) before
 *     its optimizing compiler takes the hottest. For a run over one bundle that costs more than it
 *     saves: about 3.5 ms (2.5%), and over 2 to 20 bundles 2 to 3%. Over 50 inputs and more it
 *     is level, and an input of megabytes runs a little faster with it. So it is off until the
 *     CLI says the run is that large (see sustainV8).
 * None changes what any code computes (docs/performance.md has the measurements). They are
 * set once the bundle and the Node modules a run loads are compiled: V8 checks a code cache
 * against the flags it was made under, so ours would be rejected, and so would Node's own cache
 * for each of its modules loaded after the change (see PRELOADED).
 */
function tuneV8() {
  require("node:v8").setFlagsFromString(
    "--interrupt-budget=1000000 --semi-space-growth-factor=1 --no-parallel-scavenge --no-sparkplug",
  );
}

/**
 * Turns V8's baseline compiler back on (see tuneV8): the CLI calls it, once or more, before it
 * verifies many inputs, reads a large one, or starts --jobs worker threads. Their code cache is
 * made under the flags this leaves (scripts/bundle.mjs). It also has V8 give each function made
 * from then on its feedback (what its inline caches have seen) at once, not after it has run a
 * while: in a run over many inputs almost every function runs long enough to need it, and
 * waiting costs each one a few trips through the runtime. A run over 51 inputs costs about 3%
 * less CPU, over 201 inputs 2%; a 7.7 MB input is level. V8 reads the setting as it makes a
 * function, so functions made before keep theirs.
 */
function sustainV8() {
  setFlagsOnce("--sparkplug --no-lazy-feedback-allocation");
}

/**
 * V8 lets a small old generation grow to up to four times what its last full collection left
 * before it collects it again. In a run over many inputs most of what the old generation then
 * holds is garbage: what each input's verification left alive across two young-generation
 * collections. Grown by a fifth (V8 still adds at least a few megabytes), a run over 2,000 inputs
 * peaks 2.6 to 2.8 MB lower, for one more full collection. Not for one large input, whose live
 * data grows as it is read: a 7.7 MB transcript cost 15% more CPU with it. The CLI calls this
 * before a run over many inputs in one thread (CommandHost.manyInputs).
 */
function manyInputsV8() {
  setFlagsOnce("--heap-growing-percent=20");
}

/** Sets V8's `flags` unless this process has set them already. */
function setFlagsOnce(flags) {
  if (flagsSet.has(flags)) return;
  flagsSet.add(flags);
  require("node:v8").setFlagsFromString(flags);
}

/** Runs the bundle as a CommonJS module, with the code cache when it can be read. */
function loadBundle(file, cacheFile) {
  const script = compileBundle(file, cacheFile);
  const module = { exports: {} };
  // The bundle requires only Node's own modules, which any require resolves alike: this one
  // spares loading node:module (and Node's ES module loader with it) for createRequire.
  script.runInThisContext()(module.exports, require, module, file, dirname(file));
  return { exports: module.exports, script };
}

/**
 * Compiles the bundle with the code cache in `cacheFile` when there is one. The two files are read
 * in turn into one buffer, the bundle's text copied out of it first: a page of memory a process
 * touches for the first time costs a page fault, which on a virtual machine can cost ten
 * microseconds and more, and reading the cache into the bundle's pages spares about 150 of them.
 */
function compileBundle(file, cacheFile) {
  const source = openSync(file, "r");
  let cache;
  try {
    cache = cacheFile === undefined ? undefined : openSync(cacheFile, "r");
  } catch {
    cache = undefined;
  }
  try {
    const sourceSize = fstatSync(source).size;
    const cacheSize = cache === undefined ? 0 : fstatSync(cache).size;
    const buffer = Buffer.allocUnsafeSlow(Math.max(sourceSize, cacheSize));
    const text = buffer.latin1Slice(0, readAll(source, buffer, sourceSize));
    const cached = cache === undefined ? 0 : readAll(cache, buffer, cacheSize);
    // A bundle an older build wrote without the wrapper still runs (without its cache).
    if (!text.startsWith(BUNDLE_HEAD)) return new vm.Script(`${BUNDLE_HEAD}${text}\n})`, { filename: file });
    return new vm.Script(text, { filename: file, ...(cached > 0 ? { cachedData: buffer.subarray(0, cached) } : {}) });
  } finally {
    closeSync(source);
    if (cache !== undefined) closeSync(cache);
  }
}

/** Reads up to `size` bytes of a file, from its start, into `buffer`; returns how many it read. */
function readAll(fd, buffer, size) {
  let n = 0;
  for (let got = 1; n < size && got > 0; n += got) got = readSync(fd, buffer, n, size - n, n);
  return n;
}

module.exports = { loadBundle, compileBundle, tuneV8, sustainV8, manyInputsV8, BUNDLE_HEAD, PRELOADED };
