import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { AgentsServices } from "../services.ts";
import type { ConnectorType } from "../../../lib/vocabulary/agents.ts";
import { ConnectConnectorInput, Connector, ConnectorTypeEnum, ReconnectUserConnectorInput, UserConnector } from "../types/connector.ts";
import { AgentsUser } from "../types/user.ts";
import { connectConnector, disconnectConnector, getConnector, getUserConnector, listConnectors, listUserConnectors, reconnectConnector, syncUserConnector } from "./user-connectors.ts";

@Resolver(() => UserConnector)
export class ConnectorResolver {
  constructor(private readonly services: AgentsServices) {}

  @Query(() => [Connector], { description: "The connector catalogue, by type when asked." })
  connectors(@Arg("type", () => ConnectorTypeEnum, { nullable: true }) type: ConnectorType | null, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    requireUser(ctx.principal, "read");
    return listConnectors(this.services, type ?? null);
  }

  @Query(() => Connector)
  connector(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    requireUser(ctx.principal, "read");
    return getConnector(this.services, id);
  }

  @Query(() => [UserConnector], { description: "The user's connections, oldest first." })
  user_connectors(@Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listUserConnectors(this.services.db, requireUser(ctx.principal, "read").user_id);
  }

  @Query(() => UserConnector)
  user_connector(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return getUserConnector(this.services.db, requireUser(ctx.principal, "read").user_id, id);
  }

  @Mutation(() => UserConnector, { description: "Connects a catalogue connector with credentials (api_key) or an authorization code (oauth), then syncs it." })
  connect_connector(
    @Arg("input", () => ConnectConnectorInput) input: ConnectConnectorInput,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return connectConnector(this.services, requireUser(ctx.principal, "write").user_id, { connector_id: input.connector_id, credentials: input.credentials ?? null, code: input.code ?? null }, ctx.trace_id);
  }

  @Mutation(() => UserConnector, { description: "Pulls what the service reports into the ledger." })
  sync_user_connector(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return syncUserConnector(this.services, requireUser(ctx.principal, "write").user_id, id, ctx.trace_id);
  }

  @Mutation(() => UserConnector, { description: "New credentials or authorization code for a connection, then a sync." })
  reconnect_user_connector(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => ReconnectUserConnectorInput) input: ReconnectUserConnectorInput,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return reconnectConnector(this.services, requireUser(ctx.principal, "write").user_id, id, { credentials: input.credentials ?? null, code: input.code ?? null }, ctx.trace_id);
  }

  @Mutation(() => UserConnector, { description: "Disconnects; its transactions stay in the feed." })
  disconnect_user_connector(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return disconnectConnector(this.services, requireUser(ctx.principal, "write").user_id, id, ctx.trace_id);
  }
}

@Resolver(() => AgentsUser)
export class UserConnectorsFieldResolver {
  constructor(private readonly services: AgentsServices) {}

  @FieldResolver(() => [UserConnector], { description: "The user's connections." })
  connectors(@Root() user: AgentsUser, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return user_id === user.id ? listUserConnectors(this.services.db, user_id) : Promise.resolve([]);
  }
}
