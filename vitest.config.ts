import { defineConfig } from "vitest/config";

// graphql must load once: ESM and CJS copies make "from another module or realm" errors.
const alias = [{ find: /^graphql$/, replacement: "graphql/index.js" }];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      { resolve: { alias }, test: { name: "unit", include: ["test/unit/**/*.test.ts"], setupFiles: ["test/support/setup.ts"] } },
      {
        resolve: { alias },
        test: { name: "integration", include: ["test/integration/**/*.test.ts"], setupFiles: ["test/support/setup.ts"], testTimeout: 30_000, hookTimeout: 60_000 },
      },
      {
        resolve: { alias },
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], setupFiles: ["test/support/setup.ts"], globalSetup: ["test/support/build-global-setup.ts"], testTimeout: 60_000, hookTimeout: 120_000 },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e-postgres",
          include: ["test/e2e/**/*.test.ts"],
          setupFiles: ["test/support/setup.ts"],
          globalSetup: ["test/support/build-global-setup.ts", "test/support/postgres-global-setup.ts"],
          provide: {},
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
