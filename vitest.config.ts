import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * What `npm run test:fast` (`vitest run --mode fast`) leaves out: the tests that need a build
 * (dist/), a browser, npm or live servers, and those that regenerate or fuzz many inputs. What is
 * left runs from the sources in one process per worker; `npm test` runs everything.
 */
export const SLOW = [
  "test/e2e/**", // live A2A and gRPC servers and the SDK's client
  "test/package/**", // npm pack, an install of the tarball, the built launcher
  "test/bench/**", // the benchmark
  "test/fuzz/**", // thousands of mutants
  "test/action/**", // the GitHub Action over the built CLI
  "test/report/html-browser.test.ts", // headless Chromium
  "test/producer/vectors.test.ts", // regenerates every shipped vector
  "test/adversarial/spool-equivalence.test.ts", // verifies many inputs, each again
  "test/a2a-js/package.test.ts", // imports the built package by its name
  "test/cli/jobs.test.ts", // --jobs: worker threads of the built CLI
  "test/cli/spool-faults.test.ts", // the built CLI's worker threads
  "test/cli/fetch-request-verify.test.ts", // the built CLI against request servers
  "test/net/fetch-request.test.ts", // the built CLI against request servers
  "test/report/workflow-commands.test.ts", // the built CLI's GitHub output
];

export default defineConfig(({ mode }) => ({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: mode === "fast" ? [...configDefaults.exclude, ...SLOW] : configDefaults.exclude,
    environment: "node",
    pool: "threads",
    // Vitest's default is one worker per CPU less one: a single worker on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A test's time limit is a guard against a hang, not a speed budget: on a loaded 2-core
    // machine a test that spawns a build, a browser or many processes can take minutes.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    setupFiles: ["test/helpers/tmp-setup.ts"],
  },
}));
