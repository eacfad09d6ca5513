import "reflect-metadata";
import { writeFileSync } from "node:fs";
import { ApolloGateway } from "@apollo/gateway";
import { agentSurface } from "../gateway/agent-access.ts";
import { AGENT_TOOL_SCHEMA_PATH, agentToolSchema, printAgentToolSchema } from "../gateway/agent-contract.ts";
import { composeCurrentSupergraph } from "../server/compose-current.ts";
import { SUPERGRAPH_PATH } from "../server/supergraph.ts";

const supergraphSdl = await composeCurrentSupergraph();
writeFileSync(SUPERGRAPH_PATH, supergraphSdl);
console.log(`wrote ${SUPERGRAPH_PATH}`);

// the public API schema, as the gateway derives it from the supergraph
const gateway = new ApolloGateway({ supergraphSdl });
const { schema } = await gateway.load();
await gateway.stop();
writeFileSync(AGENT_TOOL_SCHEMA_PATH, printAgentToolSchema(agentToolSchema(schema, agentSurface(supergraphSdl))));
console.log(`wrote ${AGENT_TOOL_SCHEMA_PATH}`);
