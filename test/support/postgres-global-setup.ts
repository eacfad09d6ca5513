// globalSetup of the e2e-postgres project: one cluster per run (initdb is the slow part),
// each test file then takes its own database from it (see test-database.ts).
import type { TestProject } from "vitest/node";
import { startPostgresCluster } from "./postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgresCluster();
  project.provide("postgresAdminUrl", cluster.adminUrl);
  return async () => {
    await cluster.destroy();
  };
}
