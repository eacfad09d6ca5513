import { execute, parse, type ExecutionResult } from "graphql";
import { afterAll, beforeAll, expect } from "vitest";
import { SigningKey } from "../../lib/auth/signing-key.ts";
import type { UserPrincipal } from "../../lib/auth/principal.ts";
import { loadConfig } from "../../lib/config.ts";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { applyMigrations } from "../../lib/db/migrations.ts";
import { createLogger } from "../../lib/logger.ts";
import { buildSubgraph, type BuiltSubgraph } from "../../lib/graphql/define-subgraph.ts";
import { rateLimitsFor } from "../../lib/rate-limit/rate-limits.ts";
import { usersSubgraph } from "../../subgraphs/users/index.ts";
import type { UsersServices } from "../../subgraphs/users/services.ts";
import type { SafeDeployer } from "../../subgraphs/users/safe/safe-deployer.ts";
import { userRegistrationMessage } from "../../subgraphs/users/user/register-user.ts";
import type { PrivateKeyAccount } from "viem/accounts";
import { newAccount } from "./registration.ts";

export type UsersSubgraph = BuiltSubgraph<UsersServices>;

/** The `extensions` of a GraphQL error as the users subgraph reports them. */
export type UsersErrorExtensions = {
  error_code: string;
  status: number;
  detail: string;
  retry_after?: number;
  validation?: { loc: string[] }[];
};

export interface UsersSubgraphOptions {
  /** replaces the deployer the config would choose (the sandbox one by default) */
  safeDeployer?: SafeDeployer;
  /** extra config variables, on top of DATA_DIR=memory:// and SAFE_DEPLOY_DELAY_MS=0 */
  env?: Record<string, string>;
  /** prefix of the JWT subjects `newUser` makes, unless a call names its own; "user" by default */
  subjectPrefix?: string;
}

export interface NewUserOptions {
  /** the primary EOA, which signs the registration; a fresh account by default */
  account?: PrivateKeyAccount;
  subjectPrefix?: string;
  /** 84532 (Base Sepolia) by default */
  chainId?: number;
}

export interface NewUser {
  user_id: string;
  principal: UserPrincipal;
  /** the primary EOA's checksummed address */
  address: string;
  account: PrivateKeyAccount;
}

export interface UsersSubgraphHarness {
  /** the subgraph; available from beforeAll on */
  readonly users: UsersSubgraph;
  gql(principal: UserPrincipal, query: string, variables?: Record<string, unknown>): Promise<ExecutionResult<any>>;
  /** expects the result to have failed, and returns the first error's extensions */
  errorOf(result: ExecutionResult): UsersErrorExtensions;
  /** expects the result to have succeeded, and returns its data */
  dataOf(result: ExecutionResult<any>): any;
  /** registers a user through `create_user` with a fresh JWT subject */
  newUser(options?: NewUserOptions): Promise<NewUser>;
}

const DEFAULT_CHAIN = 84532;

/**
 * An in-memory users subgraph for a test file: opens a PGlite database, applies the users migrations and builds the
 * subgraph in beforeAll, and stops both in afterAll. Call it at the top level of the file (or of a describe block).
 */
export function useUsersSubgraph(options: UsersSubgraphOptions = {}): UsersSubgraphHarness {
  let database: Database | undefined;
  let subgraph: UsersSubgraph | undefined;
  let subjects = 0;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
    await applyMigrations(database, ["users"]);
    const config = loadConfig({ DATA_DIR: "memory://", SAFE_DEPLOY_DELAY_MS: "0", ...options.env });
    subgraph = await buildSubgraph(
      usersSubgraph,
      {
        config,
        database,
        logger: createLogger("silent"),
        signingKey: await SigningKey.load(undefined, "memory://"),
        rateLimits: await rateLimitsFor(config),
        ...(options.safeDeployer ? { safeDeployer: options.safeDeployer } : {}),
      },
      {},
    );
  });

  afterAll(async () => {
    await subgraph?.stop();
    await database?.close();
  });

  const harness: UsersSubgraphHarness = {
    get users() {
      if (!subgraph) throw new Error("the users subgraph is not started yet: use it inside tests or hooks");
      return subgraph;
    },

    gql(principal, query, variables) {
      return Promise.resolve(execute({ schema: harness.users.schema, document: parse(query), variableValues: variables, contextValue: { principal, trace_id: "t" } }));
    },

    errorOf(result) {
      expect(result.errors, "expected an error").toBeDefined();
      return result.errors![0]!.extensions as UsersErrorExtensions;
    },

    dataOf(result) {
      expect(result.errors).toBeUndefined();
      return result.data;
    },

    async newUser(userOptions = {}) {
      const n = ++subjects;
      const account = userOptions.account ?? newAccount();
      const jwt = { provider: "provider_a", issuer: "https://issuer.test", subject: `${userOptions.subjectPrefix ?? options.subjectPrefix ?? "user"}-${n}` };
      const anonymous: UserPrincipal = { kind: "user", via: "jwt", environment_id: "default", user_id: null, jwt };
      const chain_id = userOptions.chainId ?? DEFAULT_CHAIN;
      const issued_at = Date.now();
      const message = userRegistrationMessage({ environment_id: "default", issuer: jwt.issuer, subject: jwt.subject, address: account.address, chain_id, issued_at });
      const created = await harness.gql(
        anonymous,
        `mutation($a: String!, $c: Int!, $t: Timestamp!, $s: String!) { create_user(input: { primary_eoa_address: $a, chain_id: $c, issued_at: $t, signature: $s }) { id } }`,
        { a: account.address, c: chain_id, t: issued_at, s: await account.signMessage({ message }) },
      );
      const user_id = harness.dataOf(created).create_user.id as string;
      return { user_id, principal: { ...anonymous, user_id } satisfies UserPrincipal, address: account.address, account };
    },
  };
  return harness;
}
