/**
 * Published third-party vectors are read in place from ../shared/vectors/external (or the folder
 * named by A2A_EVIDENCE_EXTERNAL_VECTORS); they are never copied into this repository. When the
 * folder is absent the suites that need it are skipped, and say so on stderr.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const EXTERNAL_DIR = resolve(
  process.env.A2A_EVIDENCE_EXTERNAL_VECTORS ?? join(REPO_ROOT, "..", "shared", "vectors", "external"),
);

export function externalPath(...parts: string[]): string {
  return join(EXTERNAL_DIR, ...parts);
}

export function hasExternal(...parts: string[]): boolean {
  return existsSync(externalPath(...parts));
}

export function readExternal(...parts: string[]): Uint8Array {
  return new Uint8Array(readFileSync(externalPath(...parts)));
}

export function readExternalText(...parts: string[]): string {
  return readFileSync(externalPath(...parts), "utf8");
}

export function listExternal(...parts: string[]): string[] {
  return readdirSync(externalPath(...parts)).sort();
}

/** `describe` for a suite that needs an external vector folder; skipped, loudly, when it is absent. */
export function describeExternal(folder: string, name: string, fn: () => void): void {
  if (hasExternal(folder)) {
    describe(name, fn);
  } else {
    // The suite body is not run at all: it reads the vector files while collecting its tests.
    process.stderr.write(`SKIPPED: ${name}: external vectors not found at ${externalPath(folder)}\n`);
    describe(name, () => {
      it.skip(`SKIPPED: ${externalPath(folder)} is absent`, () => undefined);
    });
  }
}
