import "reflect-metadata";
import { writeFileSync } from "node:fs";
import { REST_SCHEMAS_PATH, currentRestSchemas } from "./rest-schemas-source.ts";

// the resources' selections and schemas first: the route tables read to type the operations import them
writeFileSync(REST_SCHEMAS_PATH, await currentRestSchemas());
console.log(`wrote ${REST_SCHEMAS_PATH}`);
const { OPERATION_TYPES_PATH, currentOperationTypes } = await import("./operation-types-source.ts");
writeFileSync(OPERATION_TYPES_PATH, currentOperationTypes());
console.log(`wrote ${OPERATION_TYPES_PATH}`);
