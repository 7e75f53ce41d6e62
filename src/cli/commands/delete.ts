import { EXIT } from "../context.js";
import type { Command } from "./command.js";

export const deleteCommand: Command = {
  name: "delete",
  usage: "<id>",
  summary: "delete the object and its bytes (refused under a legal hold)",
  positionals: ["id"],
  options: {},
  async run(ctx, [objectId]) {
    await ctx.clients.files.deleteUpload({ objectId });
    ctx.out(ctx.json ? JSON.stringify({ deleted: objectId }) : `deleted ${objectId}`);
    return EXIT.ok;
  },
};
