import type { ShownEntry } from "../../domain/audit/chain/canonical-entry.js";
import type { ChainedEntry, Checkpoint } from "../../domain/audit/chain/chain-link.js";

/**
 * One line of an NDJSON audit export, as `audit export` writes it (an entry's JSON, then one
 * `{"checkpoint": {...}}` per checkpoint) or as the REST export streams it (`{"auditEntry": ...}`
 * and `{"checkpoint": ...}`). Fields are read by hand, not through the Protobuf runtime: a
 * verification reads millions of lines, and a field of the wrong type is a malformed line here,
 * not a default value.
 */
export type ExportLine =
  | { kind: "entry"; link: ChainedEntry; shown: ShownEntry }
  | { kind: "checkpoint"; checkpoint: Checkpoint }
  | { kind: "blank" };

/** A line that is not an export line; the caller adds the line number. */
export class MalformedLine extends Error {}

type Json = Record<string, unknown>;

const HASH = /^[0-9a-f]{64}$/;
const SEQUENCE = /^[0-9]{1,16}$/;

/** Every checkpoint line holds it: the first pass parses only the lines that do. */
export const CHECKPOINT_MARKER = '"checkpoint"';

export function parseExportLine(text: string): ExportLine {
  if (text.trim() === "") return { kind: "blank" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MalformedLine(`not JSON (${(error as Error).message})`);
  }
  if (!isObject(value)) throw new MalformedLine("not a JSON object");
  if ("error" in value) throw new MalformedLine(`the export ended with an error: ${JSON.stringify(value.error)}`);
  if ("checkpoint" in value) return { kind: "checkpoint", checkpoint: checkpointOf(objectAt(value, "checkpoint")) };
  const entry = "auditEntry" in value ? objectAt(value, "auditEntry") : value;
  return { kind: "entry", link: linkOf(entry), shown: shownOf(entry) };
}

function linkOf(entry: Json): ChainedEntry {
  const id = requiredText(entry, "id");
  if (entry.chain === undefined || entry.chain === null) return { id, sequence: null, previousHash: "", hash: "", canonical: "" };
  const chain = objectAt(entry, "chain");
  return { id, sequence: sequenceAt(chain, "chain.sequence"), previousHash: hashAt(chain, "previousHash"), hash: hashAt(chain, "hash"), canonical: textAt(chain, "canonical") };
}

function shownOf(entry: Json): ShownEntry {
  const details = entry.details ?? {};
  if (!isObject(details)) throw new MalformedLine("details: not a JSON object");
  return {
    id: requiredText(entry, "id"),
    objectId: textAt(entry, "objectId"),
    action: textAt(entry, "action"),
    actorId: textAt(entry, "actorId"),
    requestId: textAt(entry, "requestId"),
    correlationId: textAt(entry, "correlationId"),
    result: textAt(entry, "result"),
    occurredAt: instantAt(entry, "occurredAt"),
    objectClass: textAt(entry, "objectClass"),
    ownerType: textAt(entry, "ownerType"),
    ownerId: textAt(entry, "ownerId"),
    details,
  };
}

function checkpointOf(checkpoint: Json): Checkpoint {
  return {
    tenantId: requiredText(checkpoint, "tenantId"),
    sequence: sequenceAt(checkpoint, "checkpoint.sequence"),
    hash: hashAt(checkpoint, "hash"),
    signedAt: instantAt(checkpoint, "signedAt"),
    keyId: requiredText(checkpoint, "keyId"),
    signature: requiredText(checkpoint, "signature"),
  };
}

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

function objectAt(json: Json, name: string): Json {
  const value = json[name];
  if (!isObject(value)) throw new MalformedLine(`${name}: not a JSON object`);
  return value;
}

/** A string field; absent reads as empty, as the contract's JSON omits empty strings. */
function textAt(json: Json, name: string): string {
  const value = json[name] ?? "";
  if (typeof value !== "string") throw new MalformedLine(`${name}: not a string`);
  return value;
}

function requiredText(json: Json, name: string): string {
  const value = textAt(json, name);
  if (!value) throw new MalformedLine(`${name}: missing`);
  return value;
}

function hashAt(json: Json, name: string): string {
  const value = textAt(json, name);
  if (!HASH.test(value)) throw new MalformedLine(`${name}: not a lower-case hexadecimal SHA-256`);
  return value;
}

/** int64 is a string in the contract's JSON; a number is read too. */
function sequenceAt(json: Json, label: string): number {
  const value = json.sequence;
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !SEQUENCE.test(text)) throw new MalformedLine(`${label}: not a sequence number`);
  return Number(text);
}

function instantAt(json: Json, name: string): Date {
  const value = requiredText(json, name);
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new MalformedLine(`${name}: not a time`);
  return date;
}
