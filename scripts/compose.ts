import "reflect-metadata";
import { writeFileSync } from "node:fs";
import { composeCurrentSupergraph } from "../server/compose-current.ts";
import { SUPERGRAPH_PATH } from "../server/supergraph.ts";

writeFileSync(SUPERGRAPH_PATH, await composeCurrentSupergraph());
console.log(`wrote ${SUPERGRAPH_PATH}`);
