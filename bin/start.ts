import "reflect-metadata";
import { startSingleProcess } from "../server/single-process.ts";
import { run } from "./run.ts";

await run((config) => startSingleProcess(config));
