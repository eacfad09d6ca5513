import "reflect-metadata";
import { writeFileSync } from "node:fs";
import { GENERATED_PATH, currentRestSchemas, generatedModule } from "./rest-schemas-source.ts";

// the resources' selections and schemas first: the route tables read to type the operations import them
const restSchemas = await currentRestSchemas();
writeFileSync(GENERATED_PATH, restSchemas);
const { currentOperationTypes } = await import("./operation-types-source.ts");
writeFileSync(GENERATED_PATH, generatedModule(restSchemas, currentOperationTypes()));
console.log(`wrote ${GENERATED_PATH}`);
