import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { toJson, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AuditEntryFilterSchema } from "@files-and-fields/client/gen/filestorage/v1/audit_service_pb.js";
import { AuditAction, AuditCheckpointSchema, type AuditEntry, AuditEntrySchema, type AuditCheckpoint, ObjectClass } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { csvHeader, csvLine } from "../../domain/audit/audit-csv.js";
import { NO_OBJECT_ID } from "../../domain/audit/chain/checkpoint-entry.js";
import { jsonWriteOptions } from "../../rpc/json-options.js";
import { EXIT, UsageError } from "../context.js";
import { AuditExportProgress } from "../audit-export-progress.js";
import { runAuditVerify, VERIFY_OPTIONS } from "../audit-verify/verify-command.js";
import type { Command, OptionValues } from "./command.js";
import { enumValue } from "./upload.js";

const text = (values: OptionValues, name: string) => (values[name] as string | undefined) ?? "";

function instant(values: OptionValues, name: string): Date | undefined {
  const raw = text(values, name);
  if (!raw) return undefined;
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--${name}: "${raw}" is not a date (use ISO 8601, e.g. 2026-11-01T00:00:00Z)`);
  return date;
}

function filterOf(values: OptionValues): MessageInitShape<typeof AuditEntryFilterSchema> {
  const since = instant(values, "since");
  const until = instant(values, "until");
  const actions = text(values, "action").split(",").filter(Boolean);
  return {
    actions: actions.map((a) => enumValue(AuditAction, a, "--action")),
    actorId: text(values, "actor"),
    objectId: text(values, "object"),
    ownerType: text(values, "owner-type"),
    ownerId: text(values, "owner-id"),
    objectClass: values.class ? enumValue(ObjectClass, text(values, "class"), "--class") : 0,
    result: text(values, "result").toUpperCase(),
    correlationId: text(values, "correlation"),
    occurredAfter: since && timestampFromDate(since),
    occurredBefore: until && timestampFromDate(until),
  };
}

const entryJson = (entry: AuditEntry) => toJson(AuditEntrySchema, entry, jsonWriteOptions) as Record<string, unknown>;

function csvRowOf(entry: AuditEntry) {
  return {
    id: entry.id,
    occurred_at: entry.occurredAt ? timestampDate(entry.occurredAt).toISOString() : "",
    action: AuditAction[entry.action] ?? String(entry.action),
    result: entry.result,
    actor_id: entry.actorId,
    request_id: entry.requestId,
    correlation_id: entry.correlationId,
    object_id: entry.objectId,
    object_class: entry.objectClass ? ObjectClass[entry.objectClass] : "",
    owner_type: entry.ownerType,
    owner_id: entry.ownerId,
    details: JSON.stringify(entryJson(entry).details ?? {}),
    chain_sequence: entry.chain ? String(entry.chain.sequence) : "",
    chain_hash: entry.chain?.hash ?? "",
  };
}

/** After the entries, one line per checkpoint: what `audit verify` checks them against. */
const checkpointLine = (checkpoint: AuditCheckpoint) => `${JSON.stringify({ checkpoint: toJson(AuditCheckpointSchema, checkpoint, jsonWriteOptions) })}\n`;

async function write(out: Writable, chunk: string): Promise<void> {
  if (!out.write(chunk)) await once(out, "drain");
}

const FILTER_OPTIONS = {
  action: { type: "string" },
  actor: { type: "string" },
  object: { type: "string" },
  "owner-type": { type: "string" },
  "owner-id": { type: "string" },
  class: { type: "string" },
  result: { type: "string" },
  correlation: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
} as const;

const NOTES = `export: NDJSON (the default) carries each entry's chain link (sequence, hashes, canonical form) and,
  after the entries, one {"checkpoint": ...} line per signed checkpoint that covers them: the input of
  audit verify. CSV carries the sequence and hash but no canonical form and no checkpoints: it cannot
  be verified.
verify FILE: checks an NDJSON export offline: every entry's hash, the links between them, that each
  entry's fields say what its hashed canonical form says, and the checkpoints' signatures with
  --key KEYID=PUBLIC_KEY.pem (repeatable) or --keys FILE (the JSON of
  /.well-known/audit-signing-keys.json); with neither, the keys are fetched once from the API.
  The file is read twice and never held, whatever its size.
  Exit 0: intact (and how far the checkpoints cover it); 1: tampered, naming the first entry that was
  EDITED, REMOVED, INSERTED or REORDERED, a tail TRUNCATED before a checkpoint, or a checkpoint that
  does not match (CHECKPOINT_MISMATCH, BAD_SIGNATURE); 2: a line that is not an export line.
  Only an unfiltered export can show that nothing is missing: a filtered one has gaps in its
  sequence, reported as REMOVED.
incremental archives: export --after-sequence N writes the entries after sequence N (and the
  checkpoints from there on); verify it with --anchor N:HASH, the sequence and hash of the last
  entry of the archive before it. Without --anchor an export must start at sequence 1.`;

/**
 * `audit search` prints one page at a time (newest first unless --oldest-first); `audit export`
 * streams every matching entry, oldest first, as NDJSON or CSV to --out (or stdout), with a
 * progress line on stderr. The export never holds more than one entry. `audit verify` checks an
 * NDJSON export offline (src/cli/audit-verify/).
 */
export const auditCommand: Command = {
  name: "audit",
  usage:
    "<search|export|verify> [FILE] [--action A,B] [--actor ID] [--object ID] [--owner-type T --owner-id I] [--class C] [--result SUCCESS|FAILURE] " +
    "[--correlation ID] [--since ISO] [--until ISO] [--oldest-first] [--limit N] [--format ndjson|csv] [--out FILE] " +
    "[--after-sequence N] [--key KEYID=PEM ...] [--keys JSON] [--anchor SEQ:HASH]",
  summary: "search the tenant's audit trail, export it (NDJSON with its hash chain and checkpoints, or CSV) with progress, or verify an NDJSON export offline",
  notes: NOTES,
  positionals: ["mode", "file?"],
  options: {
    ...FILTER_OPTIONS,
    "oldest-first": { type: "boolean", default: false },
    limit: { type: "string", default: "50" },
    format: { type: "string", default: "ndjson" },
    out: { type: "string" },
    "after-sequence": { type: "string" },
    ...VERIFY_OPTIONS,
  },
  async run(ctx, args, values) {
    if (args[0] === "verify") return runAuditVerify(ctx, args[1], values);
    if (args[1] !== undefined) throw new UsageError(`unexpected argument "${args[1]}": only verify takes a file`);
    const filter = filterOf(values);
    if (args[0] === "search") {
      const limit = Math.max(1, Number(values.limit) || 50);
      const entries: AuditEntry[] = [];
      let pageToken = "";
      do {
        const page = await ctx.clients.audit.searchAuditEntries({ filter, oldestFirst: Boolean(values["oldest-first"]), pageSize: Math.min(500, limit - entries.length), pageToken });
        entries.push(...page.auditEntries);
        pageToken = page.nextPageToken;
      } while (pageToken && entries.length < limit);
      if (ctx.json) ctx.out(JSON.stringify(entries.map(entryJson)));
      else for (const entry of entries) ctx.out(summaryLine(entry));
      return EXIT.ok;
    }
    if (args[0] !== "export") throw new UsageError(`unknown mode "${args[0]}"; expected search, export or verify`);
    const format = text(values, "format");
    if (format !== "ndjson" && format !== "csv") throw new UsageError(`--format: expected ndjson or csv, got "${format}"`);
    const out = values.out ? createWriteStream(text(values, "out")) : ctx.stdout;
    const progress = new AuditExportProgress(ctx.err, instant(values, "since"), instant(values, "until"));
    if (format === "csv") await write(out, csvHeader());
    for await (const message of ctx.clients.audit.exportAuditEntries({ filter, afterSequence: afterSequenceOf(values) })) {
      if (message.checkpoint) {
        if (format === "ndjson") await write(out, checkpointLine(message.checkpoint));
        continue;
      }
      const entry = message.auditEntry;
      if (!entry) continue;
      await write(out, format === "csv" ? csvLine(csvRowOf(entry)) : `${JSON.stringify(entryJson(entry))}\n`);
      progress.advance(entry.occurredAt ? timestampDate(entry.occurredAt) : undefined);
    }
    progress.finish();
    if (out !== ctx.stdout) {
      out.end();
      await once(out, "finish");
    }
    return EXIT.ok;
  },
};

/** --after-sequence N: an incremental archive, the entries after the last one of the archive before. */
function afterSequenceOf(values: OptionValues): bigint {
  const given = values["after-sequence"];
  if (given === undefined) return 0n;
  if (typeof given !== "string" || !/^\d{1,18}$/.test(given)) throw new UsageError(`--after-sequence: expected a sequence number, got "${String(given)}"`);
  return BigInt(given);
}

/** An entry of no object (a signed checkpoint's, AUDIT_CHECKPOINT_SIGNED) shows "-" for its object. */
function summaryLine(entry: AuditEntry): string {
  const at = entry.occurredAt ? timestampDate(entry.occurredAt).toISOString() : "-";
  const object = entry.objectId === NO_OBJECT_ID ? "-" : entry.objectId;
  return [at, AuditAction[entry.action], entry.result, entry.actorId, object, entry.correlationId].join("  ");
}
