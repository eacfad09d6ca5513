// npm runs a script through a shell (`sh -c "node scripts/run-built.mjs start"`) and passes SIGTERM
// and SIGINT to that shell only. Debian's sh (dash, also the Docker image's) neither hands the
// signal on nor replaces itself with node, so `kill <npm pid>` ended npm and its shell and left
// the server running, orphaned, with its ports (issue 32). A process an npm script started
// therefore stops, as on SIGTERM, once the process that started it is gone.

/** The parent this process started under, read before anything else runs. */
const startedBy = process.ppid;
const CHECK_EVERY_MS = 1_000;

/**
 * Calls `stop` once, within a second of this process losing its parent, when an npm script
 * started it (npm sets `npm_lifecycle_event`). A process started some other way (`node dist/start.js`
 * under nohup or a supervisor, node as a container's main process) outlives its parent as before.
 * process.ppid is one getppid() call a second, on an unref'd timer: it never keeps the process alive.
 */
export function stopWhenParentExits(stop: () => void): void {
  if (!process.env.npm_lifecycle_event) return;
  const timer = setInterval(() => {
    if (process.ppid === startedBy) return;
    clearInterval(timer);
    stop();
  }, CHECK_EVERY_MS);
  timer.unref();
}
