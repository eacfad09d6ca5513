import type { AutomationFinance } from "../../../lib/automation-finance.ts";
import type { CardDataCipher } from "../../../lib/crypto/card-data-cipher.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { ConnectorType, UserConnectorStatus } from "../../../lib/vocabulary/agents.ts";
import type { AgentsDb, Prisma } from "../db.ts";
import type { ConnectorProvider } from "./connector-provider.ts";
import { nextConnectorStatus, requireConnectorMove, type ConnectorTrigger } from "./connector-status.ts";

export interface ConnectorServices {
  db: AgentsDb;
  finance: AutomationFinance;
  cipher: CardDataCipher;
  /** the services a connector reaches, by connector id (the sandbox ones in sandbox mode) */
  providers: Record<string, ConnectorProvider>;
}

type ConnectorRow = NonNullable<Awaited<ReturnType<AgentsDb["connector"]["findUnique"]>>>;
const connectorView = (row: ConnectorRow) => ({ id: row.id, name: row.name, description: row.description, type: row.type, auth: row.auth });

/**
 * Whether this deployment offers the connector: one it reaches (a provider for it: the sandbox
 * services only in sandbox mode) or one connected through Open Banking. The others are neither
 * listed nor connectable (CON-404-001), so production shows no sandbox connector.
 */
function offered(providers: ConnectorServices["providers"], row: ConnectorRow): boolean {
  return row.auth === "open_banking" || Object.hasOwn(providers, row.id);
}

export async function listConnectors(services: Pick<ConnectorServices, "db" | "providers">, type: ConnectorType | null) {
  const where = type === null ? {} : { type };
  const rows = await services.db.connector.findMany({ where, orderBy: [{ type: "asc" }, { id: "asc" }] });
  return rows.filter((row) => offered(services.providers, row)).map(connectorView);
}

/** A connector this deployment offers, or CON-404-001. */
async function offeredConnector(services: Pick<ConnectorServices, "db" | "providers">, id: string): Promise<ConnectorRow> {
  const row = await services.db.connector.findUnique({ where: { id } });
  if (!row || !offered(services.providers, row)) throw appError("CON-404-001");
  return row;
}

export async function getConnector(services: Pick<ConnectorServices, "db" | "providers">, id: string) {
  return connectorView(await offeredConnector(services, id));
}

const WITH_CONNECTOR = { connector: true } as const;
type UserConnectorRow = NonNullable<Awaited<ReturnType<typeof loadRow>>>;

/** A connection as the API shows it: never its credentials. */
function userConnectorView(row: UserConnectorRow) {
  return {
    id: row.id,
    connector: connectorView(row.connector),
    status: row.status as UserConnectorStatus,
    last_error: row.last_error,
    last_synced_at: row.last_synced_at,
    last_sync: (row.last_sync ?? null) as Record<string, unknown> | null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type UserConnectorView = ReturnType<typeof userConnectorView>;

function loadRow(db: AgentsDb, userId: string, id: string) {
  return db.userConnector.findFirst({ where: { id, user_id: userId }, include: WITH_CONNECTOR });
}

async function load(db: AgentsDb, userId: string, id: string): Promise<UserConnectorRow> {
  const row = await loadRow(db, userId, id);
  if (!row) throw appError("CON-404-002");
  return row;
}

function providerOf(services: ConnectorServices, connector: ConnectorRow): ConnectorProvider {
  if (connector.auth === "open_banking") throw appError("CON-422-002");
  const provider = services.providers[connector.id];
  if (!provider) throw appError("GEN-503-001", `${connector.name} cannot be reached from this deployment.`);
  return provider;
}

/** Moves the connection through the one table, matched on the status read (a racing move loses with CON-409-001). */
async function move(db: AgentsDb, row: { id: string; status: string }, trigger: ConnectorTrigger, data: Prisma.UserConnectorUpdateManyMutationInput = {}): Promise<void> {
  const to = requireConnectorMove(row.status as UserConnectorStatus, trigger);
  const { count } = await db.userConnector.updateMany({ where: { id: row.id, status: row.status }, data: { status: to, ...data } });
  if (count === 0) throw appError("CON-409-001", "The connection changed meanwhile; read it again.");
}

/**
 * Runs the service's sync: an exchange's reported movements land in the ledger (finance records
 * each once), a bookkeeping or tax service takes the ledger's new transactions. A refusal by the
 * service puts a connected connection in error with why; a success brings an error one back. Only
 * a connected or error connection syncs.
 */
export async function syncUserConnector(services: ConnectorServices, userId: string, id: string, traceId: string): Promise<UserConnectorView> {
  const row = await load(services.db, userId, id);
  if (row.status === "disconnected") throw appError("CON-409-001", "The connection is disconnected; connect it again to sync.");
  const provider = providerOf(services, row.connector);
  const now = new Date();
  let outcome;
  try {
    outcome = await provider.sync(JSON.parse(services.cipher.open(row.credentials_sealed)) as Record<string, unknown>, { user_id: userId, exported_through: row.exported_through, now, finance: services.finance, trace_id: traceId });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (nextConnectorStatus(row.status as UserConnectorStatus, "sync_failed")) await move(services.db, row, "sync_failed", { last_error: why });
    else await services.db.userConnector.update({ where: { id: row.id }, data: { last_error: why } });
    return userConnectorView(await load(services.db, userId, id));
  }
  let summary: Record<string, number>;
  let exportedThrough = row.exported_through;
  if ("movements" in outcome) {
    summary = { recorded: await services.finance.syncExternalAccount({ user_id: userId, account_id: row.id, provider: row.connector.id, name: row.connector.name, movements: outcome.movements }, traceId) };
  } else {
    summary = { exported: outcome.exported };
    exportedThrough = outcome.through;
  }
  const done = { last_synced_at: now, last_error: null, last_sync: summary, exported_through: exportedThrough };
  if (row.status === "error") await move(services.db, row, "sync_succeeded", done);
  else await services.db.userConnector.update({ where: { id: row.id }, data: done });
  return userConnectorView(await load(services.db, userId, id));
}

/** Connects a catalogue connector with what its service wants (credentials or an authorization code), kept sealed, then syncs it. */
export async function connectConnector(
  services: ConnectorServices,
  userId: string,
  input: { connector_id: string; credentials: Record<string, unknown> | null; code: string | null },
  traceId: string,
): Promise<UserConnectorView> {
  const connector = await offeredConnector(services, input.connector_id);
  const secret = await providerOf(services, connector).authorize(input);
  const now = new Date();
  const id = newId("ucn", now.getTime());
  await services.db.userConnector.create({ data: { id, user_id: userId, connector_id: connector.id, status: "connected", credentials_sealed: services.cipher.seal(JSON.stringify(secret)), created_at: now, updated_at: now } });
  try {
    return await syncUserConnector(services, userId, id, traceId);
  } catch (error) {
    // the ledger could not take the first sync (finance away): no connection is left behind half-made
    await services.db.userConnector.delete({ where: { id } });
    throw error;
  }
}

/** New credentials or a new authorization code for a connection (checked by the service), then a sync. */
export async function reconnectConnector(services: ConnectorServices, userId: string, id: string, input: { credentials: Record<string, unknown> | null; code: string | null }, traceId: string): Promise<UserConnectorView> {
  const row = await load(services.db, userId, id);
  const secret = await providerOf(services, row.connector).authorize(input);
  await move(services.db, row, "reconnect", { credentials_sealed: services.cipher.seal(JSON.stringify(secret)), last_error: null });
  return syncUserConnector(services, userId, id, traceId);
}

/** Disconnects: nothing syncs any more, an exchange's account leaves the accounts view, its transactions stay. */
export async function disconnectConnector(services: ConnectorServices, userId: string, id: string, traceId: string): Promise<UserConnectorView> {
  const row = await load(services.db, userId, id);
  await move(services.db, row, "disconnect");
  await services.finance.closeExternalAccount(userId, row.id, traceId);
  return userConnectorView(await load(services.db, userId, id));
}

export async function listUserConnectors(db: AgentsDb, userId: string): Promise<UserConnectorView[]> {
  return (await db.userConnector.findMany({ where: { user_id: userId }, include: WITH_CONNECTOR, orderBy: [{ created_at: "asc" }, { id: "asc" }] })).map(userConnectorView);
}

export async function getUserConnector(db: AgentsDb, userId: string, id: string): Promise<UserConnectorView> {
  return userConnectorView(await load(db, userId, id));
}
