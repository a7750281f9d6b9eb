/**
 * docs/api.md's example compiles under strict TypeScript against the public entry point, so the
 * documented API and the exported one cannot drift apart.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";

describe("docs/api.md", () => {
  it("the strict-TypeScript example compiles against src/index.ts", () => {
    const doc = readFileSync(join(REPO_ROOT, "docs", "api.md"), "utf8");
    const example = doc.slice(doc.indexOf("## Example")).match(/```ts\n([\s\S]*?)```/)?.[1];
    expect(example).toBeDefined();
    const dir = mkdtempSync(join(REPO_ROOT, "test", ".api-example-"));
    try {
      const file = join(dir, "example.ts");
      writeFileSync(
        file,
        (example as string).replace('from "a2a-evidence"', `from "${join(REPO_ROOT, "src", "index.js")}"`),
      );
      const program = ts.createProgram([file], {
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: ["node"],
        noEmit: true,
        skipLibCheck: true,
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file?.fileName === file || d.file === undefined);
      expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
