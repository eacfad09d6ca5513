// Throwaway PostgreSQL clusters for tests: initdb into a temp dir, run on 127.0.0.1 and a free port.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "./net.ts";

export type PostgresCluster = {
  /** Superuser `app` on database `app`. */
  adminUrl: string;
  port: number;
  /** The cluster's data directory (kept across stop/start). */
  dataDir: string;
  /** `pg_ctl stop -m fast`; the data dir and port stay, so start() brings the same cluster back. */
  stop(): Promise<void>;
  /** Restart after stop(). */
  start(): Promise<void>;
  /**
   * SIGSTOP the server and every process of it: a hung server, whose sockets stay open (the kernel
   * still accepts connections and acknowledges data) while nothing answers.
   */
  freeze(): void;
  /** SIGCONT after freeze(): it carries on where it stood. */
  thaw(): void;
  /** Stop and delete the temp dir; also done automatically at process exit. */
  destroy(): Promise<void>;
};

const execFileAsync = promisify(execFile);
const PREFERRED_VERSION = "15";
const ROOT_DIR = "/usr/lib/postgresql";

/** 15 if installed (what the stack notes pin), else the newest installed major. */
export function findPostgresBinDir(): string {
  const preferred = path.join(ROOT_DIR, PREFERRED_VERSION, "bin");
  if (existsSync(path.join(preferred, "initdb"))) return preferred;
  const versions = existsSync(ROOT_DIR)
    ? readdirSync(ROOT_DIR)
        .filter((v) => existsSync(path.join(ROOT_DIR, v, "bin", "initdb")))
        .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    : [];
  if (versions.length === 0) {
    throw new Error(`No PostgreSQL binaries under ${ROOT_DIR}/*/bin: run \`apt-get install -y postgresql\``);
  }
  return path.join(ROOT_DIR, versions[0]!, "bin");
}

// The server refuses to run as root, so as root every server-side command runs as `postgres`.
const asRoot = process.getuid?.() === 0;

function asServerUser(file: string, args: string[]): [string, string[]] {
  return asRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
}

// PG* variables from the caller's shell must not steer our private cluster.
function serverEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PG")));
}

async function runServerCommand(file: string, args: string[], cwd: string): Promise<void> {
  const [cmd, cmdArgs] = asServerUser(file, args);
  try {
    await execFileAsync(cmd, cmdArgs, { cwd, env: serverEnv() });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? "";
    throw new Error(`${path.basename(file)} ${args.join(" ")} failed: ${stderr || String(error)}`);
  }
}

// Clusters still alive in this process; the exit hook stops them so none is leaked.
type Live = { root: string; dataDir: string; gone: boolean; frozen: number[] };
const live = new Set<Live>();
let exitHookInstalled = false;

// Synchronous, so it can run inside 'exit' and signal handlers: SIGQUIT is PostgreSQL's
// immediate shutdown, fine for data that is deleted anyway, and needs no child process.
function killNow(cluster: Live): void {
  cluster.gone = true;
  live.delete(cluster);
  signalAll(cluster.frozen, "SIGCONT");
  try {
    const pid = Number(readFileSync(path.join(cluster.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    if (pid > 0) process.kill(pid, "SIGQUIT");
  } catch {
    // not running
  }
  rmSync(cluster.root, { recursive: true, force: true });
}

/** A process's children, from /proc (the postmaster's: its backends and background workers). */
function childrenOf(parent: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        // "pid (command) state ppid …": the command may hold spaces and parentheses
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone
    }
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const killAll = () => [...live].forEach(killNow);
  process.on("exit", killAll);
  // vitest stops its fork workers with SIGTERM, which skips 'exit' handlers.
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    const onSignal = () => {
      killAll();
      process.off(signal, onSignal);
      // Keep the default behaviour (die by the signal) unless someone else handles it.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

async function logTail(logFile: string): Promise<string> {
  const text = await readFile(logFile, "utf8").catch(() => "");
  return text.split("\n").slice(-20).join("\n");
}

export async function startPostgresCluster(options: { port?: number } = {}): Promise<PostgresCluster> {
  const binDir = findPostgresBinDir();
  const pgCtl = path.join(binDir, "pg_ctl");
  const port = options.port ?? (await freePort());

  const root = await mkdtemp(path.join(os.tmpdir(), "pg-test-"));
  const dataDir = path.join(root, "data");
  // Socket dir inside the temp dir: no clash with a system cluster in /var/run/postgresql.
  const socketDir = path.join(root, "socket");
  const logFile = path.join(root, "server.log");
  const entry: Live = { root, dataDir, gone: false, frozen: [] };
  live.add(entry);
  installExitHook();

  let running = false;
  const start = async (): Promise<void> => {
    if (entry.gone) throw new Error("PostgreSQL cluster was already destroyed");
    if (running) return;
    try {
      await runServerCommand(pgCtl, ["start", "-D", dataDir, "-l", logFile, "-w", "-t", "60", "-s"], root);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- server log ---\n${await logTail(logFile)}`);
    }
    running = true;
  };
  const stop = async (): Promise<void> => {
    if (!running || entry.gone) return; // gone: the exit hook already took it down
    await runServerCommand(pgCtl, ["stop", "-D", dataDir, "-m", "fast", "-w", "-s"], root);
    running = false;
  };
  const freeze = (): void => {
    const postmaster = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    // the postmaster first: stopped, it forks no backend the list below would miss
    signalAll([postmaster], "SIGSTOP");
    entry.frozen = [postmaster, ...childrenOf(postmaster)];
    signalAll(entry.frozen, "SIGSTOP");
  };
  const thaw = (): void => {
    signalAll(entry.frozen, "SIGCONT");
    entry.frozen = [];
  };
  const destroy = async (): Promise<void> => {
    thaw();
    await stop(); // if this throws, the entry stays so the exit hook still stops the server
    entry.gone = true;
    live.delete(entry);
    await rm(root, { recursive: true, force: true });
  };

  try {
    await mkdir(socketDir);
    if (asRoot) await execFileAsync("chown", ["-R", "postgres:postgres", root]);
    await runServerCommand(
      path.join(binDir, "initdb"),
      ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
      root,
    );
    // Settings live in postgresql.conf (not `-o` flags) so start() after stop() gets them again.
    // initdb's `-c` only exists from PostgreSQL 16 on.
    await appendFile(
      path.join(dataDir, "postgresql.conf"),
      [
        "",
        "# test harness",
        "listen_addresses = '127.0.0.1'",
        `port = ${port}`,
        `unix_socket_directories = '${socketDir}'`,
        // Durability is pointless for throwaway data and costs seconds per run.
        "fsync = off",
        "synchronous_commit = off",
        "full_page_writes = off",
        "max_connections = 200",
        "",
      ].join("\n"),
    );
    await start();
    await bootstrap(`postgres://postgres@127.0.0.1:${port}/postgres`);
  } catch (error) {
    killNow(entry); // also covers a server that came up but timed out or failed bootstrap
    throw error;
  }

  return { adminUrl: `postgres://app@127.0.0.1:${port}/app`, port, dataDir, start, stop, freeze, thaw, destroy };
}

// Role and database the app and tests use; superuser so tests can CREATE DATABASE.
async function bootstrap(superuserUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    await client.query("CREATE ROLE app LOGIN SUPERUSER");
    await client.query("CREATE DATABASE app OWNER app");
  } finally {
    await client.end();
  }
}
