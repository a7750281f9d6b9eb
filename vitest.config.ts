import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    pool: "threads",
    // Vitest's default is one worker per CPU less one: a single worker on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30000,
    setupFiles: ["test/helpers/tmp-setup.ts"],
  },
});
