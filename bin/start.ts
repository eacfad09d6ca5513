import "reflect-metadata";
import { loadConfig } from "../lib/config.ts";
import { startSingleProcess } from "../server/single-process.ts";
import { run } from "./run.ts";

await run(() => startSingleProcess(loadConfig()));
