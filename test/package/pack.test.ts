/**
 * The package as a user gets it: `npm pack`, then install the tarball into an empty folder with
 * nothing but the local npm cache (what `npm ci` of this checkout left there) and run the installed
 * CLI on a vector the package ships. The installed tree is pinned by a lockfile built from this
 * project's own, so the dependencies are exactly the ones the tests ran against.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/external.js";
import { PROPERTY_NAMES } from "../../src/report/model.js";

const BUILT = existsSync(join(REPO_ROOT, "dist", "cli", "main.js"));
if (!BUILT) process.stderr.write("SKIPPED: package test: dist/ is not built (npm run build)\n");

// npm run from `npm test` exports its own configuration (npm_config_local_prefix names this
// checkout, npm_package_* describe it): the install in the temporary folder must not inherit it.
const KEEP_NPM = new Set([
  "npm_config_cache",
  "npm_config_cafile",
  "npm_config_userconfig",
  "npm_config_globalconfig",
  "npm_config_registry",
]);
const ENV = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) || KEEP_NPM.has(k.toLowerCase())),
);
delete ENV.INIT_CWD;

function run(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env: ENV, encoding: "utf8", timeout: 120000 });
}

interface PackedFile {
  readonly path: string;
}

describe.skipIf(!BUILT)("the npm package", () => {
  let work: string;
  let packed: string[];
  let app: string;
  let installed: string;
  let installOutput: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "a2a-evidence-pack-"));
    const out = join(work, "tarball");
    mkdirSync(out);
    // dist/ is already built (CI builds before testing); --ignore-scripts keeps `prepack` from
    // rebuilding it under the feet of tests that run the built CLI at the same time.
    const pack = run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", out], REPO_ROOT);
    if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
    const info = JSON.parse(pack.stdout) as { filename: string; files: PackedFile[] }[];
    const tarball = join(out, (info[0] as { filename: string }).filename);
    packed = (info[0]?.files ?? []).map((f) => f.path).sort();

    app = join(work, "app");
    mkdirSync(app);
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const spec = `file:${tarball}`;
    // The lockfile pins the package's dependencies but not the package itself: npm reads the
    // tarball's own package.json as it adds it, as for a user's `npm install a2a-evidence`, and
    // says so when the package has a script it would run at install time.
    const packages: Record<string, unknown> = {
      "": { name: "a2a-evidence-consumer", version: "1.0.0", dependencies: { "a2a-evidence": spec } },
    };
    for (const [path, entry] of Object.entries(lock.packages)) if (path !== "" && !entry.dev) packages[path] = entry;
    writeFileSync(
      join(app, "package.json"),
      JSON.stringify({
        name: "a2a-evidence-consumer",
        version: "1.0.0",
        private: true,
        dependencies: { "a2a-evidence": spec },
      }),
    );
    writeFileSync(
      join(app, "package-lock.json"),
      JSON.stringify({ name: "a2a-evidence-consumer", version: "1.0.0", lockfileVersion: 3, requires: true, packages }),
    );
    // --foreground-scripts: a lifecycle script that ran would print its "> name@version script" header.
    const install = run(
      "npm",
      ["install", "--offline", "--no-audit", "--no-fund", "--no-update-notifier", "--foreground-scripts"],
      app,
    );
    if (install.status !== 0)
      throw new Error(`offline install failed (is the npm cache filled by npm ci?): ${install.stderr}`);
    installOutput = `${install.stdout}${install.stderr}`;
    installed = join(app, "node_modules", "a2a-evidence");
  }, 300_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("ships the README, LICENSE, CHANGELOG, docs, schemas, vectors, the launcher and dist, and nothing of the sources or tests", () => {
    for (const f of [
      "README.md",
      "LICENSE",
      "CHANGELOG.md",
      "package.json",
      "bin/a2a-evidence.cjs",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/cli/main.js",
    ]) {
      expect(packed, f).toContain(f);
    }
    for (const d of ["docs/", "schemas/", "vectors/"]) {
      const inRepo = listFiles(join(REPO_ROOT, d)).map((f) => `${d}${f}`);
      expect(inRepo.length).toBeGreaterThan(0);
      for (const f of inRepo) expect(packed, f).toContain(f);
    }
    expect(
      packed.filter(
        (f) => /^(src|test|producer|bench|node_modules)\//.test(f) || f.startsWith(".") || f.includes("/."),
      ),
    ).toEqual([]);
    const license = readFileSync(join(installed, "LICENSE"), "utf8");
    expect(license).toContain("Apache License\n                           Version 2.0, January 2004");
    expect(license).toContain("END OF TERMS AND CONDITIONS");
    expect(license).toContain("APPENDIX: How to apply the Apache License to your work.");
  });

  it("declares where it comes from, what it needs and what it exports", () => {
    const pkg = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    expect(pkg.license).toBe("Apache-2.0");
    expect(pkg.repository.url).toMatch(/^git\+https:\/\//);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.keywords).toContain("a2a");
    expect(pkg.engines.node).toBe(">=20.19");
    expect(pkg.exports["."]).toEqual({ types: "./dist/index.d.ts", import: "./dist/index.js" });
    expect(pkg.exports["./package.json"]).toBe("./package.json");
  });

  it("installs without running a script of its own, and npm warns about none (dist/ is built when packed)", () => {
    const pkg = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
      scripts?: Record<string, string>;
    };
    expect(installOutput).not.toMatch(/install-scripts|allowScripts|> a2a-evidence@/);
    const installTime = ["preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"];
    expect(Object.keys(pkg.scripts ?? {}).filter((s) => installTime.includes(s))).toEqual([]);
    expect(pkg.scripts?.prepack).toBe("npm run build");
    expect(existsSync(join(installed, "dist", "a2a-evidence.cjs"))).toBe(true);
  });

  it("the README's quick start for the installed package, run literally, exits 0 at each command", () => {
    const { installed: commands, install } = quickStart();
    // The consumer folder was installed from this package's tarball: what `npm install a2a-evidence` gives.
    expect(install).toBe("npm install a2a-evidence");
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const command of commands) {
      const r = run("sh", ["-c", command], app);
      expect(r.status, `${command}\n${r.stdout}${r.stderr}`).toBe(0);
      expect(r.stderr, command).toBe("");
    }
    expect(commands[0]).toMatch(/^npx a2a-evidence verify /);
  });

  it("the README's quick start from a clone: install and build, then the verify command exits 0 in the checkout", () => {
    const { clone } = quickStart();
    const steps = clone.split(" && ");
    expect(steps.slice(0, 2)).toEqual(["npm ci", "npm run build"]);
    const verify = steps.slice(2).join(" && ");
    expect(verify).toMatch(/^npx a2a-evidence verify /);
    const r = run("sh", ["-c", verify], REPO_ROOT);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it("runs from the installed package: npx a2a-evidence verify --trust <shipped trust> <shipped vector> exits 0", () => {
    const vector = join("node_modules", "a2a-evidence", "vectors", "valid-minimal");
    const r = run(
      "npx",
      ["--no", "a2a-evidence", "verify", "--trust", join(vector, "trust.json"), join(vector, "input.json")],
      app,
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/✔ contentBinding\s+PASS/);
    expect(r.stdout).toMatch(/\n {2}exit 0: the policy holds\b.*\n$/);
    const fail = run(
      "npx",
      [
        "--no",
        "a2a-evidence",
        "verify",
        "--format",
        "json",
        "--trust",
        join("node_modules", "a2a-evidence", "vectors", "neg-taskBinding-task-id", "trust.json"),
        join("node_modules", "a2a-evidence", "vectors", "neg-taskBinding-task-id", "input.json"),
      ],
      app,
    );
    expect(fail.status).toBe(1);
    expect(JSON.parse(fail.stdout).inputs[0].properties.taskBinding.state).toBe("FAIL");
  });

  it("imports as a library, with types, and exposes its schemas", () => {
    writeFileSync(
      join(app, "use.mjs"),
      `import { verify, PROPERTY_NAMES } from "a2a-evidence";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const dir = "node_modules/a2a-evidence/vectors/valid-minimal/";
const report = verify({ inputs: [{ source: "x", data: readFileSync(dir + "input.json") }], trust: readFileSync(dir + "trust.json") });
const schema = createRequire(import.meta.url).resolve("a2a-evidence/schemas/report.schema.json");
process.stdout.write(JSON.stringify({ exit: report.policy.exitCode, n: PROPERTY_NAMES.length, schema: schema.endsWith("report.schema.json") }));
`,
    );
    expect(JSON.parse(execFileSync(process.execPath, ["use.mjs"], { cwd: app, env: ENV, encoding: "utf8" }))).toEqual({
      exit: 0,
      n: PROPERTY_NAMES.length,
      schema: true,
    });

    writeFileSync(
      join(app, "use.mts"),
      `import { verify, type Report } from "a2a-evidence";
const report: Report = verify({ inputs: [{ source: "x", data: "{}" }] });
const code: 0 | 1 | 2 | 3 = report.policy.exitCode;
export { code };
`,
    );
    const tsc = createRequire(join(REPO_ROOT, "package.json")).resolve("typescript/bin/tsc");
    // A consumer on Node with @types/node (the declarations name node:crypto's KeyObject), and
    // without skipLibCheck, so every shipped declaration is checked.
    const typeRoots = [join(REPO_ROOT, "node_modules", "@types")];
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          typeRoots,
          types: ["node"],
        },
        files: ["use.mts"],
      }),
    );
    const typed = run(process.execPath, [tsc, "-p", "tsconfig.json"], app);
    expect(typed.stdout + typed.stderr).toBe("");
    expect(typed.status).toBe(0);
  });

  it("every relative link in the installed README and docs resolves inside the installed package", () => {
    const pages = [
      "README.md",
      ...listFiles(join(installed, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    let links = 0;
    for (const page of pages) {
      const text = readFileSync(join(installed, page), "utf8");
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = (m[1] as string).split("#")[0] as string;
        if (target === "" || /^[a-z]+:/i.test(target)) continue;
        const abs = resolve(dirname(join(installed, page)), target);
        expect(relative(installed, abs).startsWith(`..${sep}`), `${page} → ${target} leaves the package`).toBe(false);
        expect(existsSync(abs), `${page} → ${target}`).toBe(true);
        links++;
      }
    }
    const readmeDocs = [...readFileSync(join(installed, "README.md"), "utf8").matchAll(/\]\((docs\/[^)#\s]+)/g)].map(
      (m) => m[1],
    );
    expect(readmeDocs.length).toBeGreaterThan(0);
    expect(links).toBeGreaterThanOrEqual(readmeDocs.length);
  });

  it("runs the shipped conformance vectors from the installed package", () => {
    const help = run("npx", ["--no", "--", "a2a-evidence", "--help"], app);
    expect(help.stdout).toMatch(/^\s+vectors\b/m);
    const r = run(
      "npx",
      ["--no", "--", "a2a-evidence", "vectors", join("node_modules", "a2a-evidence", "vectors")],
      app,
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });
});

/** The README's quick start: the clone's one command, the installed package's install and commands. */
function quickStart(): { clone: string; install: string; installed: string[] } {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const section = readme.slice(
    readme.indexOf("## Quick start"),
    readme.indexOf("\n## ", readme.indexOf("## Quick start") + 1),
  );
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => (m[1] as string).trim().split("\n"));
  const install = /From the installed package \(`([^`]+)`\)/.exec(section.replace(/\s+/g, " "));
  if (blocks.length < 2 || install === null) throw new Error("README.md: the quick start has changed shape");
  return { clone: (blocks[0] as string[]).join(" "), install: install[1] as string, installed: blocks[1] as string[] };
}

function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}
