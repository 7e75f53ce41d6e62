/**
 * Ports chosen for a server that binds them later, reserved across this user's processes on the
 * machine: a file per port, created exclusively, naming the process that chose it. A port is
 * only taken once its server binds it, so two processes choosing at the same moment (vitest's
 * workers, the real-server lane beside the dev lanes, the bench) could otherwise be handed the
 * same free port. A reservation lasts as long as the process that made it; one whose process is
 * gone (killed before it could remove its files) is cleared by the first choice of a later process.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";

/** `FILES_AND_FIELDS_PORT_RESERVATIONS` moves the folder; `off` reserves nothing across processes. */
export function portReservationsDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.FILES_AND_FIELDS_PORT_RESERVATIONS?.trim();
  if (configured === "off") return undefined;
  if (configured) return configured;
  return path.join(tmpdir(), `files-and-fields-ports-${userId()}`);
}

function userId(): string {
  try {
    return String(userInfo().uid);
  } catch {
    return "user";
  }
}

const mine = new Set<string>();
let cleanupInstalled = false;
/** Folders this process has cleared of ended reservations. */
const swept = new Set<string>();

/**
 * A reservation older than this is over whatever its file says: its server bound the port long
 * ago (or never will), and a pid can meanwhile belong to another process.
 */
const RESERVATION_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Reserves `port` for this process; false when another live process holds it. A folder that
 * cannot be written reserves nothing (true): the choice is then as good as within one process.
 */
export function reservePort(port: number, dir = portReservationsDir()): boolean {
  if (!dir) return true;
  const file = path.join(dir, String(port));
  try {
    mkdirSync(dir, { recursive: true });
    if (!swept.has(dir)) sweep(dir);
    if (create(file)) return remember(file);
    // Its process is gone: the file goes, and the port is left to a later choice. Taking it over
    // here could remove a reservation another process made after both found the file stale.
    if (isStale(file)) rmSync(file, { force: true });
    return false;
  } catch {
    return true;
  }
}

function create(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, String(process.pid));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Once per process: the reservations of processes that ended without removing theirs (a test
 * runner's workers are killed, not exited), so that they do not pile up over the range.
 */
function sweep(dir: string): void {
  swept.add(dir);
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (isStale(file)) rmSync(file, { force: true });
  }
}

/** Whether the reservation is over: its process gone, or made too long ago. A file not yet written is a live choice. */
function isStale(file: string): boolean {
  let pid: number;
  try {
    if (Date.now() - statSync(file).mtimeMs > RESERVATION_MAX_AGE_MS) return true;
    pid = Number(readFileSync(file, "utf8").trim());
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "EPERM";
  }
}

function remember(file: string): true {
  mine.add(file);
  if (!cleanupInstalled) {
    cleanupInstalled = true;
    process.once("exit", releaseAll);
  }
  return true;
}

/** On exit: this process's reservations end with it. */
function releaseAll(): void {
  for (const file of mine) {
    try {
      unlinkSync(file);
    } catch {
      // Already gone, or the folder went away: nothing holds the port either way.
    }
  }
  mine.clear();
}
