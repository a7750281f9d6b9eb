import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
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
});
