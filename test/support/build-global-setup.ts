// globalSetup of the e2e projects: the suites that start the platform as its own process run
// what `npm start` runs, the bundle in dist/, so it is built first when the sources are newer.
// @ts-expect-error: a plain JavaScript module (it runs before anything is compiled)
import { build, isStale } from "../../scripts/build.mjs";

export default async function setup(): Promise<void> {
  if (isStale()) await build();
}
