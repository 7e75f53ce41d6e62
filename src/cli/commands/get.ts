import { EXIT } from "../context.js";
import type { Command } from "./command.js";
import { report } from "./watch.js";

export const getCommand: Command = {
  name: "get",
  usage: "<id>",
  summary: "show one object with its scan checks",
  positionals: ["id"],
  options: {},
  async run(ctx, [objectId]) {
    const { storedObject } = await ctx.clients.files.getUpload({ objectId });
    report(ctx, storedObject!);
    return EXIT.ok;
  },
};
