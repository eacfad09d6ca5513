import "reflect-metadata";
import { ConfigError, loadConfig } from "../lib/config.ts";
import { SERVICE_NAMES, startService, type ServiceName } from "../server/split.ts";
import { run } from "./run.ts";

// `npm run start:<service>`: one service of the split topology per process (WORKERS of them)
const name = process.argv[2] as ServiceName;
await run(
  (config) => startService(name, config),
  () => {
    if (!SERVICE_NAMES.includes(name)) throw new ConfigError("service", `expected one of ${SERVICE_NAMES.join(", ")}, got "${name ?? ""}"`);
    return loadConfig();
  },
);
