// Lint rules, and the layering of src/ (docs/architecture.md): each layer imports only from the
// layers below it, pure layers never touch files, the network or the process, and neither src/
// nor producer/ reach into each other beyond what the producer is allowed to share.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The layers, lowest first: a module imports only from its own layer and the layers before it.
// A layer is named by its folders (`../properties/…`) or its root stage files (`./verify.js`); the
// base layer's root files are imported by every layer, so they name nothing here.
const LAYERS = [
  ["base", []],
  ["primitives", ["canon", "crypto", "cose", "aac", "log", "peac", "witness"]],
  ["inputs", ["input", "trust"]],
  // The reading layer: the bundle and the Task read into typed facts, from the inputs and the
  // primitives only. The key windows and the properties judge from it; the explanation shows it.
  ["evidence", ["evidence"]],
  // Key windows and the trusted time a signature is judged at: from the evidence, never a property.
  ["keys", ["keys"]],
  ["properties", ["properties"]],
  ["policy", ["policy"]],
  // The renderers read the report's data shape (src/report/model.ts, in the verify layer by the
  // file rule below), never the driver; the driver never reads a renderer.
  ["report", ["report"]],
  ["verify", ["verify"]],
  ["commands", ["cli", "net", "card", "a2a-js"]],
];
// The explanation branches off above `keys`: it reads what the properties read, never a property's
// judgement, the policy or a report, and of the layers above it only the commands read it.
const BRANCH = { name: "inspect", folders: ["inspect"], above: "keys", readBy: "commands" };

const ROOT_FILES = ["policy", "verify"];
const seg = (names) =>
  `(^|/)(${names.filter((n) => !ROOT_FILES.includes(n)).join("|")})/|(^|/)(${names.filter((n) => ROOT_FILES.includes(n)).join("|") || "(?!)"})\\.js$`;
const position = (name) => LAYERS.findIndex(([n]) => n === name);
const foldersAfter = (i) => LAYERS.slice(i + 1).flatMap(([, folders]) => folders);
/** What a layer must not import: every later layer, and the branch unless it is the branch's reader. */
function higher(name) {
  if (name === BRANCH.name) return foldersAfter(position(BRANCH.above));
  const branch = position(name) < position(BRANCH.readBy) ? BRANCH.folders : [];
  return [...foldersAfter(position(name)), ...branch];
}
const HIGHER = Object.fromEntries([...LAYERS.map(([name]) => name), BRANCH.name].map((n) => [n, higher(n)]));
const IMPURE = [
  "node:fs",
  "node:fs/promises",
  "node:path",
  "node:os",
  "node:http",
  "node:https",
  "node:net",
  "node:child_process",
  "node:worker_threads",
  "node:process",
];

function layer(files, higher, extra = [], impure = IMPURE) {
  return {
    files,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: impure.map((name) => ({
            name,
            message: "only src/cli/ touches files and the process, only src/net/ the network",
          })),
          patterns: [
            { regex: seg(higher), message: "a lower layer never imports a higher one (docs/architecture.md)" },
            { regex: "(^|/)(producer|test)/", message: "src/ never imports the producer or the tests" },
            ...extra,
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "vectors/**", "coverage/**", "src/**/*.generated.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-constant-condition": ["error", { checkLoops: false }],
      // Control characters are what strict parsers exist to refuse; the regexes name them on purpose.
      "no-control-regex": "off",
    },
    languageOptions: { globals: { process: "readonly", Buffer: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: {
        require: "readonly",
        module: "writable",
        __dirname: "readonly",
        __filename: "readonly",
        process: "readonly",
      },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["test/**/*.ts"],
    // Tests spell out numbers beyond 2^53 to show what a lossy parser would do with them.
    rules: { "no-loss-of-precision": "off", "@typescript-eslint/no-loss-of-precision": "off" },
  },
  {
    files: ["src/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
    },
  },
  layer(
    [
      "src/codes/**",
      "src/result.ts",
      "src/check.ts",
      "src/util/**",
      "src/json/**",
      "src/version.ts",
      "src/profile.ts",
      "src/level.ts",
    ],
    HIGHER.base,
  ),
  layer(
    ["src/canon/**", "src/crypto/**", "src/cose/**", "src/aac/**", "src/log/**", "src/peac/**", "src/witness/**"],
    HIGHER.primitives,
  ),
  layer(["src/input/**", "src/trust/**"], HIGHER.inputs),
  layer(["src/evidence/**"], HIGHER.evidence),
  layer(["src/keys/**"], HIGHER.keys),
  layer(["src/properties/**"], HIGHER.properties),
  layer(["src/policy.ts"], HIGHER.policy),
  layer(
    ["src/verify.ts", "src/run.ts", "src/verify-input.ts", "src/report/model.ts", "src/report/summary.ts"],
    HIGHER.verify,
    [
      {
        regex: "(^|/)report/(?!model\\.js$|summary\\.js$)",
        message: "the verify stage uses the report's data shape and summary, never a renderer",
      },
    ],
  ),
  layer(["src/report/**"], HIGHER.report),
  layer(["src/inspect/**"], HIGHER.inspect),
  // Agent Card verification is pure, beside the inputs it reads; the network client is the one
  // module that may open a connection; the SDK gate sits on top of verify().
  layer(["src/card/**"], [...HIGHER.inputs, "net", "a2a-js"]),
  layer(
    ["src/net/**"],
    [...HIGHER.inputs, "card", "a2a-js"],
    [],
    IMPURE.filter((m) => !["node:http", "node:https", "node:net"].includes(m)),
  ),
  layer(["src/a2a-js/**"], ["cli", "net"]),
  {
    files: ["producer/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^\\.\\./src/(?!canon/[a-z0-9-]+\\.js$|json/value\\.js$|util/bytes\\.js$)",
              message:
                "the producer is independent of the verifier: it shares only src/canon/*, src/json/value.ts and src/util/bytes.ts",
            },
          ],
        },
      ],
    },
  },
);
