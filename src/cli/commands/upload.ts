import { stat } from "node:fs/promises";
import path from "node:path";
import { ObjectClass, ObjectStatus } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { guessContentType } from "../guess-content-type.js";
import { type CliContext, UsageError } from "../context.js";
import { isFinal } from "../format.js";
import { ProgressBar } from "../progress.js";
import { forgetUpload, interruptedUpload, rememberUpload, sendMissingParts } from "../multipart-upload.js";
import { putFile, TransferFailed } from "../transfer.js";
import type { Command } from "./command.js";
import { parseWatchOptions, report, waitUntilFinal, watchOptions } from "./watch.js";

export function enumValue<E extends Record<string, string | number>>(enumObject: E, name: string, option: string): E[keyof E] {
  const value = enumObject[name.toUpperCase() as keyof E];
  if (typeof value !== "number" || value === 0) {
    const allowed = Object.keys(enumObject).filter((k) => Number.isNaN(Number(k)) && enumObject[k] !== 0);
    throw new UsageError(`${option}: unknown value "${name}"; expected one of ${allowed.join(", ")}`);
  }
  return value;
}

/**
 * The same command run again after an interruption: the state file names the multipart upload,
 * and only the parts storage lacks are sent. An upload that is no longer pending (completed,
 * aborted, expired) is forgotten and the file is uploaded anew.
 */
async function resumeInterrupted(ctx: CliContext, file: string, info: { size: number; mtimeMs: number }, progress: ProgressBar): Promise<string | undefined> {
  const interrupted = await interruptedUpload(file, info);
  if (!interrupted) return undefined;
  const { objectId, partSize } = interrupted;
  try {
    const { storedObject } = await ctx.clients.files.getUpload({ objectId });
    if (storedObject?.status !== ObjectStatus.PENDING_UPLOAD) throw new Error("not resumable");
    ctx.err.write(`${objectId} resumed\n`);
    const sent = await sendMissingParts(ctx.clients.files, objectId, file, info.size, partSize, progress);
    ctx.err.write(`${sent} missing parts sent\n`);
    return objectId;
  } catch (error) {
    if (error instanceof TransferFailed) throw error;
    await forgetUpload(file);
    return undefined;
  }
}

export const uploadCommand: Command = {
  name: "upload",
  usage: "<file> --class C --owner-type T --owner-id I [--type MIME] [--wait]",
  summary: "initiate, PUT the bytes with a progress bar, complete (--wait: until the scan ends)",
  positionals: ["file"],
  options: {
    class: { type: "string" },
    "owner-type": { type: "string" },
    "owner-id": { type: "string" },
    type: { type: "string" },
    wait: { type: "boolean", default: false },
    ...watchOptions,
  },
  async run(ctx, [file], values) {
    for (const required of ["class", "owner-type", "owner-id"]) {
      if (!values[required]) throw new UsageError(`--${required} is required`);
    }
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw new UsageError(`${file} is not a readable file`);
    const originalFilename = path.basename(file);
    const contentType = (values.type as string | undefined) ?? guessContentType(originalFilename);
    if (!contentType) throw new UsageError(`cannot tell the content type of ${originalFilename}; pass --type`);
    const progress = new ProgressBar(ctx.err, originalFilename, info.size);
    let objectId = await resumeInterrupted(ctx, file, info, progress);
    if (!objectId) {
      const started = await ctx.clients.files.initiateUpload({
        objectClass: enumValue(ObjectClass, values.class as string, "--class"),
        ownerEntityType: values["owner-type"] as string,
        ownerEntityId: values["owner-id"] as string,
        originalFilename,
        contentType,
        fileSize: BigInt(info.size),
        acceptMultipart: true,
      });
      objectId = started.storedObject!.id;
      ctx.err.write(`${objectId} initiated (${contentType})\n`);
      if (started.multipart) {
        const partSize = Number(started.multipart.partSize);
        await rememberUpload(file, { objectId, size: info.size, mtimeMs: info.mtimeMs, partSize });
        await sendMissingParts(ctx.clients.files, objectId, file, info.size, partSize, progress);
      } else {
        await putFile(started.uploadUrl, started.uploadHeaders, file, progress);
      }
    }
    const wait = values.wait === true;
    let { storedObject } = await ctx.clients.files.completeUpload({ objectId, waitForResult: wait });
    await forgetUpload(file);
    // complete answers at its deadline even if the scan goes on; then keep watching.
    if (wait && !isFinal(storedObject!.status)) storedObject = await waitUntilFinal(ctx, objectId, parseWatchOptions(values));
    return report(ctx, storedObject!);
  },
};
