import { ObjectClass, ObjectStatus, type StoredObject } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { EXIT } from "../context.js";
import { objectJson, objectTable } from "../format.js";
import type { Command } from "./command.js";
import { enumValue } from "./upload.js";

const PAGE_SIZE = 100;

export const listCommand: Command = {
  name: "list",
  usage: "[--owner-type T] [--owner-id I] [--status S] [--class C] [--limit N]",
  summary: "list objects, newest first (--limit, default 50, follows pages)",
  positionals: [],
  options: {
    "owner-type": { type: "string" },
    "owner-id": { type: "string" },
    status: { type: "string" },
    class: { type: "string" },
    limit: { type: "string", default: "50" },
  },
  async run(ctx, _args, values) {
    const limit = Math.max(1, Number(values.limit) || 50);
    const request = {
      ownerEntityType: (values["owner-type"] as string | undefined) ?? "",
      ownerEntityId: (values["owner-id"] as string | undefined) ?? "",
      status: values.status ? enumValue(ObjectStatus, values.status as string, "--status") : ObjectStatus.OBJECT_STATUS_UNSPECIFIED,
      objectClass: values.class ? enumValue(ObjectClass, values.class as string, "--class") : ObjectClass.OBJECT_CLASS_UNSPECIFIED,
    };
    const objects: StoredObject[] = [];
    let pageToken = "";
    do {
      const page = await ctx.clients.files.listUploads({ ...request, pageSize: Math.min(PAGE_SIZE, limit - objects.length), pageToken });
      objects.push(...page.storedObjects);
      pageToken = page.nextPageToken;
    } while (pageToken && objects.length < limit);
    if (ctx.json) ctx.out(JSON.stringify(objects.map(objectJson)));
    else objectTable(objects).forEach((line) => ctx.out(line));
    return EXIT.ok;
  },
};
