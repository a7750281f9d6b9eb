/**
 * The promises the layers make, held on every file of src/ (the generated validators aside): no
 * import circle (the import graph read from the sources), no file over 600 lines, and no function
 * over 80 (measured with the TypeScript parser).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

const SRC = join(REPO_ROOT, "src");
const MAX_LINES = 600;
const MAX_FUNCTION_LINES = 80;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".generated.ts") ? [relative(SRC, path)] : [];
  });
}

/** The files of src/ each file imports (`import`, `export … from`, `import()`; type-only imports too). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  const specifier = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
  for (const file of files) {
    const text = readFileSync(join(SRC, file), "utf8");
    const targets = new Set<string>();
    for (const m of text.matchAll(specifier)) {
      const spec = m[1] ?? m[2] ?? "";
      if (!spec.startsWith(".")) continue;
      const target = relative(SRC, resolve(dirname(join(SRC, file)), spec)).replace(/\.js$/, ".ts");
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Every circle of the graph, one per strongly connected component (Tarjan), as a path through it. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const files = sources(SRC);
const lines = (file: string) => readFileSync(join(SRC, file), "utf8").split("\n").length - 1;

describe("the layers of src/", () => {
  it("the circle finder finds a circle and only a circle", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(circles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(
      circles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
  });

  it("no import circle in src/", () => {
    expect(circles(importGraph(files)).map((c) => c.join(" → "))).toEqual([]);
  });

  it(`no file over ${MAX_LINES} lines (generated validators aside)`, () => {
    expect(files.filter((f) => lines(f) > MAX_LINES)).toEqual([]);
  });

  it("the level rules are a leaf: src/level.ts imports nothing of the properties", () => {
    const graph = importGraph(files);
    expect((graph.get("level.ts") ?? []).filter((f) => f !== "profile.ts")).toEqual([]);
  });

  it("run.ts reads the properties only through the registry (properties/index.ts)", () => {
    const graph = importGraph(files);
    expect((graph.get("run.ts") ?? []).filter((f) => f.startsWith("properties/"))).toEqual(["properties/index.ts"]);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines (first to last line, comments included)`, () => {
    const long = files.flatMap((f) => longFunctions(f)).map((x) => `${x.file}:${x.line} ${x.name} (${x.lines})`);
    expect(long).toEqual([]);
  });
});

/** Functions, methods and arrows of a file longer than MAX_FUNCTION_LINES, by the TypeScript parser. */
function longFunctions(file: string): { file: string; line: number; name: string; lines: number }[] {
  const src = ts.createSourceFile(file, readFileSync(join(SRC, file), "utf8"), ts.ScriptTarget.Latest, true);
  const out: { file: string; line: number; name: string; lines: number }[] = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isFunctionDeclaration(n) ||
      ts.isMethodDeclaration(n) ||
      ts.isArrowFunction(n) ||
      ts.isFunctionExpression(n)
    ) {
      const first = src.getLineAndCharacterOfPosition(n.getStart()).line;
      const last = src.getLineAndCharacterOfPosition(n.getEnd()).line;
      const named = (n as { name?: ts.Node }).name;
      if (last - first + 1 > MAX_FUNCTION_LINES)
        out.push({ file, line: first + 1, name: named ? named.getText(src) : "(anonymous)", lines: last - first + 1 });
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}
