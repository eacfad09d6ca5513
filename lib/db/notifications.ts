// PostgreSQL's LISTEN/NOTIFY for waking pollers (the job queues, the ledger-event consumer) the
// moment another process commits work for them. A notification is a hint, never the record: the
// work is in a table, the pollers still poll as a fallback, and a listener that was away (its
// connection dropped) tells its handlers so when it is back, so they look at once.
import type { Client } from "pg";

/**
 * `payload`: what the notifier sent; undefined when the listener (re)connected and whatever was
 * sent while it was away is lost.
 */
export type NotificationHandler = (payload: string | undefined) => void;

export interface Notifications {
  /** Calls `handler` on each NOTIFY on `channel` (lower case letters and `_`); returns what stops it. */
  listen(channel: string, handler: NotificationHandler): () => void;
}

const CHANNEL = /^[a-z_]+$/;

export function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel ${channel}`);
}

/** The first wait before connecting again, doubled after each failure up to RECONNECT_MAX_MS. */
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * One connection of its own per process (a pooled one would go back to the pool and stop
 * listening), opened at the first `listen`, LISTENing on every channel asked for. When it drops (a
 * restart of the server, pg_terminate_backend, a network cut noticed by keepalive) it connects
 * again, backing off up to 5 s, and calls every handler with undefined once it listens again.
 */
export class PostgresListener implements Notifications {
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private client: Client | undefined;
  private connecting = false;
  private retryMs = RECONNECT_MIN_MS;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** the connection's statements, one after another: pg warns of a query sent while another runs (pg 9 refuses it) */
  private sent: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly newClient: () => Client,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** whether a connection is listening now */
  get connected(): boolean {
    return this.client !== undefined;
  }

  listen(channel: string, handler: NotificationHandler): () => void {
    checkChannel(channel);
    let set = this.handlers.get(channel);
    if (!set) {
      this.handlers.set(channel, (set = new Set()));
      const client = this.client;
      if (client) this.send(client, `LISTEN ${channel}`).catch((error: unknown) => this.drop(client, error));
    }
    set.add(handler);
    if (!this.client && !this.connecting && !this.timer) this.connect();
    return () => {
      set.delete(handler);
      if (set.size > 0 || this.handlers.get(channel) !== set) return;
      this.handlers.delete(channel);
      if (this.client) this.send(this.client, `UNLISTEN ${channel}`).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private send(client: Client, sql: string): Promise<unknown> {
    const result = this.sent.then(() => client.query(sql));
    this.sent = result.catch(() => undefined);
    return result;
  }

  private connect(): void {
    this.timer = undefined;
    if (this.closed) return;
    this.connecting = true;
    const client = this.newClient();
    client.on("notification", (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload);
    });
    // a connection that fails later (terminated, cut) reports here; without a listener it would crash the process
    client.on("error", (error) => this.drop(client, error));
    client.on("end", () => this.drop(client));
    void (async () => {
      try {
        await client.connect();
        for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
      } catch (error) {
        this.connecting = false;
        this.drop(client, error, true);
        return;
      }
      this.connecting = false;
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.retryMs = RECONNECT_MIN_MS;
      // what was notified while nobody listened is lost: every handler looks now
      for (const set of this.handlers.values()) for (const handler of set) handler(undefined);
    })();
  }

  /** Forgets `client` (once) and connects again after the back-off. */
  private drop(client: Client, error?: unknown, failedToConnect = false): void {
    if (this.client !== client && !failedToConnect) return;
    this.client = undefined;
    client.removeAllListeners("end");
    client.on("error", () => {});
    client.end().catch(() => undefined);
    if (error !== undefined) this.onError(error);
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => this.connect(), this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(RECONNECT_MAX_MS, this.retryMs * 2);
  }
}
