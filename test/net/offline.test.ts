/**
 * The verifier is offline by construction: only `fetch` (src/net/ and its command) may import a
 * network module. A new import of one anywhere else in src/ fails here, before it ships.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

const NETWORK =
  /from\s+"(node:)?(http|https|net|tls|dgram|dns|http2)(\/[a-z]+)?"|import\(\s*"(node:)?(http|https|net|tls|dns|http2)"|(^|\W)fetch\(/;
/** HTTP/1.1 for JSON-RPC and REST, HTTP/2 for gRPC. */
const ALLOWED = new Set(["src/net/http.ts", "src/net/grpc.ts"]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("only fetch touches the network", () => {
  it("no file in src/ but src/net/http.ts and src/net/grpc.ts imports a network module or calls fetch()", () => {
    const offenders = sources(join(REPO_ROOT, "src"))
      .map((f) => relative(REPO_ROOT, f))
      .filter((f) => !ALLOWED.has(f) && NETWORK.test(readFileSync(join(REPO_ROOT, f), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("the guard sees the two files that do", () => {
    for (const f of ALLOWED) expect(NETWORK.test(readFileSync(join(REPO_ROOT, f), "utf8"))).toBe(true);
  });
});
