import "reflect-metadata";
import { writeFileSync } from "node:fs";
import { OPERATION_TYPES_PATH, currentOperationTypes } from "./operation-types-source.ts";

writeFileSync(OPERATION_TYPES_PATH, currentOperationTypes());
console.log(`wrote ${OPERATION_TYPES_PATH}`);
