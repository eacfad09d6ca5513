import { Field, ID, InputType, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import { CONNECTOR_TYPES, USER_CONNECTOR_STATUSES, type ConnectorType, type UserConnectorStatus } from "../../../lib/vocabulary/agents.ts";

export const ConnectorTypeEnum = graphqlEnum(CONNECTOR_TYPES, "ConnectorType", "What a connector of the catalogue connects (spec 2.10).");
export const UserConnectorStatusEnum = graphqlEnum(USER_CONNECTOR_STATUSES, "UserConnectorStatus", "A user's connection's states (spec 3.6).");

@ObjectType({ description: "A connector of the catalogue (spec 2.10 types exchange, bank, accounting, tax)." })
export class Connector {
  @Field(() => ID, { description: "con_<name>" })
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  description!: string;

  @Field(() => ConnectorTypeEnum)
  type!: ConnectorType;

  @Field(() => String, { description: "api_key (credentials), oauth (an authorization code) or open_banking (linked through /v0/open-banking)" })
  auth!: string;
}

@ObjectType({ description: "A connector the user connected (spec 3.6: connected, disconnected, error); never its credentials." })
export class UserConnector {
  @Field(() => ID, { description: "ucn_<id>" })
  id!: string;

  @Field(() => Connector)
  connector!: Connector;

  @Field(() => UserConnectorStatusEnum)
  status!: UserConnectorStatus;

  @Field(() => String, { nullable: true, description: "Why its last sync failed." })
  last_error!: string | null;

  @Field(() => Date, { nullable: true })
  last_synced_at!: Date | null;

  @Field(() => JSONObjectScalar, { nullable: true, description: "What the last sync did: {recorded} movements from an exchange, {exported} transactions to books or taxes." })
  last_sync!: Record<string, unknown> | null;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

const CREDENTIALS = "for `api_key` connectors: what the service wants (the sandbox exchange an api_key sbx_… and an api_secret of 16+ characters); sealed at once, never returned or logged";
const CODE = "for `oauth` connectors: the authorization code the service's consent screen gave your app (the sandbox's: sbx_code_…); exchanged once for tokens, which are kept sealed";

@InputType({ description: "A catalogue connector to connect, with what its service wants: credentials (api_key) or an authorization code (oauth)." })
export class ConnectConnectorInput {
  @Field(() => ID)
  connector_id!: string;

  @Field(() => JSONObjectScalar, { nullable: true, description: CREDENTIALS })
  credentials?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: CODE })
  code?: string | null;
}

@InputType({ description: "New credentials (api_key) or a new authorization code (oauth) for a connection." })
export class ReconnectUserConnectorInput {
  @Field(() => JSONObjectScalar, { nullable: true, description: CREDENTIALS })
  credentials?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: CODE })
  code?: string | null;
}
