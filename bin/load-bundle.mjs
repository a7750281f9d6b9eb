// Loads the bundled command line (dist/a2a-evidence.cjs) with its V8 code cache: the compiled
// code comes from the cache instead of being parsed and compiled at every start. A cache that
// does not fit this Node (another V8 version) is rejected by V8 and the code compiles as usual.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import vm from "node:vm";

const HEAD = "(function (exports, require, module, __filename, __dirname) {";
const TAIL = "\n})";

/** The bundle compiled as a function, with the cache when one is given. */
export function compileBundle(file, cachedData) {
  const source = HEAD + readFileSync(file, "utf8") + TAIL;
  return new vm.Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
}

/** Runs the bundle as a CommonJS module and returns its exports and the compiled script. */
export function loadBundle(file, cacheFile) {
  let cachedData;
  if (cacheFile) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const script = compileBundle(file, cachedData);
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, script };
}
