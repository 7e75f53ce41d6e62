import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findFreePortBelow } from "../../../src/stack/free-port.js";
import { reservePort } from "../../../src/stack/port-reservations.js";
import { temporaryDirs } from "../../support/temporary-dirs.js";

const newDir = temporaryDirs("port-reservations-");
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** A free port this process never handed out (findFreePort's own choices it would not repeat). */
function osPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A pid no process has any more: a child that has exited. */
function exitedPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("port reservations across processes", () => {
  // Two processes choosing at the same moment (vitest's workers, the real-server lane) could be
  // handed the same free port before either server binds it.
  it("a port another live process chose is never chosen", async () => {
    const dir = newDir();
    const port = await osPort();
    writeFileSync(path.join(dir, String(port)), String(process.ppid));
    await expect(findFreePortBelow(port + 1, port, { reservations: dir })).rejects.toThrow(/could not find a free TCP port/);
  });

  it("a reservation whose process is gone is removed, and the port chosen again", async () => {
    const dir = newDir();
    const port = await osPort();
    writeFileSync(path.join(dir, String(port)), String(exitedPid()));
    expect(await findFreePortBelow(port + 1, port, { reservations: dir })).toBe(port);
    expect(readFileSync(path.join(dir, String(port)), "utf8")).toBe(String(process.pid));
  });

  it("a reservation is written before its pid: an empty file is a choice in progress", () => {
    const dir = newDir();
    writeFileSync(path.join(dir, "20001"), "");
    expect(reservePort(20001, dir)).toBe(false);
    expect(existsSync(path.join(dir, "20001"))).toBe(true);
  });

  // A test runner's workers are killed, not exited: their reservations must not pile up.
  it("the first choice in a folder clears the reservations of ended processes and old ones", () => {
    const dir = newDir();
    const write = (port: number, content: string) => writeFileSync(path.join(dir, String(port)), content);
    write(20003, String(exitedPid()));
    write(20004, String(process.ppid));
    write(20005, String(process.ppid));
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    utimesSync(path.join(dir, "20005"), dayAgo, dayAgo);
    expect(reservePort(20006, dir)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(["20004", "20006"]);
  });

  it("ends with the process that made it", () => {
    const dir = newDir();
    const file = path.join(dir, "20002");
    const script = [
      `const { reservePort } = await import("./src/stack/port-reservations.ts");`,
      `const { readFileSync } = await import("node:fs");`,
      `if (!reservePort(20002, ${JSON.stringify(dir)})) process.exit(3);`,
      `process.stdout.write(readFileSync(${JSON.stringify(file)}, "utf8"));`,
    ].join("\n");
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    expect(child.status, child.stderr).toBe(0);
    expect(child.stdout).toBe(String(child.pid));
    expect(existsSync(file)).toBe(false);
  });
});
