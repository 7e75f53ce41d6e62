import { existsSync } from "node:fs";
import path from "node:path";
import { EXIT, UsageError } from "../context.js";
import { ProgressBar } from "../progress.js";
import { download } from "../transfer.js";
import type { Command } from "./command.js";

export const downloadCommand: Command = {
  name: "download",
  usage: "<id> [--out PATH|-] [--force]",
  summary: "download a READY object (default: its original file name here; - for stdout)",
  positionals: ["id"],
  options: { out: { type: "string" }, force: { type: "boolean", default: false } },
  async run(ctx, [objectId], values) {
    const signed = await ctx.clients.files.createDownloadUrl({ objectId });
    // Never a path from the server as given: only its last component, in the current directory.
    const out = (values.out as string | undefined) ?? path.basename(signed.originalFilename);
    if (out === "" || out === "." || out === "..") throw new UsageError("the object's file name is unusable here; pass --out");
    if (out !== "-" && existsSync(out) && !values.force) throw new UsageError(`${out} exists; pass --force to overwrite`);
    const progress = new ProgressBar(ctx.err, signed.originalFilename, Number(signed.fileSize));
    await download(signed.downloadUrl, out === "-" ? ctx.stdout : out, progress);
    if (out !== "-") ctx.err.write(`saved ${out}\n`);
    return EXIT.ok;
  },
};
