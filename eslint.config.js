// Lint rules, and the layering of src/ (docs/architecture.md): each layer imports only from the
// layers below it, pure layers never touch files, the network or the process, and neither src/
// nor producer/ reach into each other beyond what the producer is allowed to share.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// A higher layer is a folder (`../properties/…`) or one of the root stage files (`./verify.js`).
const ROOT_FILES = ["policy", "verify"];
const seg = (names) =>
  `(^|/)(${names.filter((n) => !ROOT_FILES.includes(n)).join("|")})/|(^|/)(${names.filter((n) => ROOT_FILES.includes(n)).join("|") || "(?!)"})\\.js$`;
const HIGHER = {
  base: [
    "canon",
    "crypto",
    "cose",
    "aac",
    "log",
    "peac",
    "witness",
    "input",
    "trust",
    "evidence",
    "properties",
    "policy",
    "verify",
    "report",
    "inspect",
    "cli",
    "net",
    "card",
    "a2a-js",
  ],
  primitives: [
    "input",
    "trust",
    "evidence",
    "properties",
    "policy",
    "verify",
    "report",
    "inspect",
    "cli",
    "net",
    "card",
    "a2a-js",
  ],
  inputs: ["evidence", "properties", "policy", "verify", "report", "inspect", "cli", "net", "card", "a2a-js"],
  // The reading layer: the bundle and the Task read into typed facts, from the inputs and the
  // primitives only. The properties judge from it; the explanation shows it.
  evidence: ["properties", "policy", "verify", "report", "inspect", "cli", "net", "card", "a2a-js"],
  properties: ["policy", "verify", "report", "inspect", "cli", "net", "card", "a2a-js"],
  policy: ["verify", "report", "inspect", "cli", "net", "card", "a2a-js"],
  verify: ["inspect", "cli", "net", "card", "a2a-js"],
  report: ["verify", "inspect", "cli", "net", "card", "a2a-js"],
  // The explanation sits beside the properties and the report: it reads the evidence layer as the
  // properties do, never a property's judgement, and neither it nor the report reads the other.
  inspect: ["properties", "policy", "verify", "report", "cli", "net", "card", "a2a-js"],
};
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
    ["src/codes/**", "src/result.ts", "src/util/**", "src/json/**", "src/version.ts", "src/profile.ts", "src/level.ts"],
    HIGHER.base,
  ),
  layer(
    ["src/canon/**", "src/crypto/**", "src/cose/**", "src/aac/**", "src/log/**", "src/peac/**", "src/witness/**"],
    HIGHER.primitives,
  ),
  layer(["src/input/**", "src/trust/**"], HIGHER.inputs),
  layer(["src/evidence/**"], HIGHER.evidence),
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
