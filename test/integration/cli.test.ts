import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { png } from "../fixtures/files/index.js";
import { type CliRun, runCli } from "../support/cli-process.js";
import { apiUrl, rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { uploadThrough } from "../support/uploads.js";

const cli = runCli;

describe("npm run cli", () => {
  const bytes = png(64, 48);
  let dir: string;
  let env: Record<string, string>;
  let run: (...args: string[]) => Promise<CliRun>;
  const file = (name: string) => path.join(dir, name);
  const owner = ["--owner-type", "User", "--owner-id", "cli-user"];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-test-"));
    writeFileSync(file("avatar.png"), bytes);
    env = { API_URL: apiUrl(), TOKEN: await tokenFor(uniqueTenant("cli")) };
    run = (...args) => cli(args, env);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("uploads, lists, downloads and deletes a file", async () => {
    const upload = await run("upload", file("avatar.png"), "--class", "USER_PROFILE_PHOTO", ...owner, "--wait", "--json");
    expect(upload.code, upload.stderr).toBe(0);
    const object = JSON.parse(upload.stdout);
    expect(object).toMatchObject({ status: "READY", contentType: "image/png", originalFilename: "avatar.png", fileSize: String(bytes.length) });
    expect(upload.stderr).toContain("100%");

    const listed = await run("list", ...owner, "--status", "READY");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.split("\n")[0]).toMatch(/^ID\s+STATUS\s+CLASS/);
    expect(listed.stdout).toMatch(new RegExp(`${object.id}\\s+READY\\s+USER_PROFILE_PHOTO`));

    const download = await run("download", object.id, "--out", file("copy.png"));
    expect(download.code, download.stderr).toBe(0);
    expect(new Uint8Array(readFileSync(file("copy.png")))).toEqual(bytes);

    const removed = await run("delete", object.id);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout.trim()).toBe(`deleted ${object.id}`);

    const gone = await run("get", object.id);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("error: not_found");
  });

  it("shows the failed checks of a rejected file and exits 3", async () => {
    writeFileSync(file("fake.png"), "MZ not an image at all");
    const upload = await run("upload", file("fake.png"), "--class", "USER_PROFILE_PHOTO", ...owner, "--wait");
    expect(upload.code, upload.stderr).toBe(3);
    expect(upload.stdout).toMatch(/status\s+REJECTED/);
    expect(upload.stdout).toMatch(/check\s+magic_bytes FAILED/);
  });

  it("refuses a bad command line with the usage and exit code 2", async () => {
    const result = await run("upload", file("avatar.png"), "--class", "NOT_A_CLASS", ...owner);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected one of USER_PROFILE_PHOTO");
    expect(result.stderr).toContain("usage: npm run cli -- upload");
  });

  it("watches an object to its final status", async () => {
    const upload = await run("upload", file("avatar.png"), "--class", "GENERAL_DOCUMENT", ...owner, "--json");
    expect(upload.code, upload.stderr).toBe(0);
    const { id } = JSON.parse(upload.stdout);
    const watched = await run("watch", id, "--interval", "0.2");
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).toMatch(/status\s+READY/);
  });

  it("searches and exports the audit trail as CSV and NDJSON, with a progress line", async () => {
    const upload = await run("upload", file("avatar.png"), "--class", "USER_PROFILE_PHOTO", ...owner, "--wait", "--json");
    expect(upload.code, upload.stderr).toBe(0);
    const object = JSON.parse(upload.stdout);

    const found = await run("audit", "search", "--object", object.id, "--oldest-first", "--json");
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout).map((e: { action: string }) => e.action)).toEqual(["UPLOAD_INITIATED", "UPLOAD_COMPLETED", "SCAN_PASSED"]);

    const csvExport = await run("audit", "export", "--object", object.id, "--format", "csv", "--out", file("audit.csv"));
    expect(csvExport.code, csvExport.stderr).toBe(0);
    expect(csvExport.stderr).toMatch(/audit export: 3 entries up to .* \(done\)/);
    const rows = readFileSync(file("audit.csv"), "utf8").trim().split("\r\n");
    expect(rows[0]).toBe('"id","occurred_at","action","result","actor_id","request_id","correlation_id","object_id","object_class","owner_type","owner_id","details","chain_sequence","chain_hash"');
    expect(rows.slice(1).map((r) => r.split(",")[2])).toEqual(['"UPLOAD_INITIATED"', '"UPLOAD_COMPLETED"', '"SCAN_PASSED"']);

    const ndjson = await run("audit", "export", "--object", object.id, "--action", "SCAN_PASSED");
    expect(ndjson.code, ndjson.stderr).toBe(0);
    const lines = ndjson.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines).toEqual([expect.objectContaining({ action: "SCAN_PASSED", objectId: object.id, objectClass: "USER_PROFILE_PHOTO" })]);

    const bad = await run("audit", "export", "--format", "xml");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("expected ndjson or csv");
  });

  it("exports a hold reason built for a ;-locale spreadsheet with no cell any delimiter would evaluate", async () => {
    const object = await uploadThrough(env.TOKEN, { objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes });
    const reason = "x;=cmd|' /C calc'!A0;y";
    expect((await rest("POST", `/api/v1/uploads/${object.id}/legal-hold`, { token: env.TOKEN, body: { reason } })).status).toBe(200);
    const exported = await run("audit", "export", "--object", object.id, "--format", "csv", "--out", file("hold.csv"));
    expect(exported.code, exported.stderr).toBe(0);
    const csvText = readFileSync(file("hold.csv"), "utf8");
    expect(csvText).toContain("x;'=cmd|");
    // A reader that ignores the quotes sees the most cells; none may start like a formula.
    for (const delimiter of [",", ";", "\t", "|"]) {
      const cells = csvText.split(/\r?\n/).flatMap((line) => line.split(delimiter));
      expect(cells.filter((cell) => /^[\s"]*[=+\-@]/.test(cell)), delimiter).toEqual([]);
    }
  });
});
