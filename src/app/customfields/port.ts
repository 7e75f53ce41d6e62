/**
 * What the custom field use cases need from outside, in domain terms: the definition store and
 * the key-value store under the definition cache (both in src/adapters). Expression indexes are
 * no concern of the use cases: the worker builds them from the stored definitions.
 */
import type { Actor } from "../../domain/actor.js";
import type { FieldDefinition } from "../../domain/customfields/definition.js";
import type { Cursor } from "../../domain/pagination.js";

export type DefinitionAction = "CREATED" | "UPDATED" | "DELETED";

/** An audit row as it was stored. */
export interface DefinitionAuditEntry {
  id: string;
  definitionId: string;
  action: string;
  actorId: string;
  requestId?: string | null;
  oldVersion?: number | null;
  newVersion?: number | null;
  changes: Record<string, unknown>;
  occurredAt: Date;
}

/** One audit row: who changed which definition, when, between which versions, and what. */
export interface DefinitionAudit {
  definitionId: string;
  action: DefinitionAction;
  actor: Actor;
  oldVersion: number | null;
  newVersion: number;
  /** Per changed field `{old, new}`; a create records the whole definition under `new`. */
  changes: Record<string, unknown>;
  at: Date;
}

/** The fields an update may write (identity, version and timestamps are the store's). */
export type DefinitionChanges = Partial<
  Pick<
    FieldDefinition,
    | "fieldLabel"
    | "description"
    | "fieldType"
    | "isRequired"
    | "displayOrder"
    | "defaultStrategy"
    | "defaultValue"
    | "computedFormula"
    | "defaultRules"
    | "validation"
    | "validationRules"
    | "uiConfig"
    | "isActive"
    | "indexed"
  >
>;

/**
 * Runs inside a write's transaction while no other guarded write of the same tenant runs, with the
 * number of the tenant's live indexed definitions other than the one written; throws to refuse.
 */
export type IndexedFieldGuard = (otherIndexed: number) => void;

/**
 * Runs inside a create's transaction while no other create of the same tenant and entity type
 * runs, with the number of that entity type's live definitions; throws to refuse.
 */
export type DefinitionCountGuard = (live: number) => void;

export interface FieldDefinitionCatalog {
  /** Definitions not soft-deleted (active and inactive), by display order then key. */
  listLive(tenantId: string, entityType: string): Promise<FieldDefinition[]>;
  findLive(tenantId: string, id: string): Promise<FieldDefinition | undefined>;
  /** Inserts with its audit row; a live definition with the same key is FIELD_KEY_EXISTS. */
  insert(def: FieldDefinition, audit: DefinitionAudit, guard?: IndexedFieldGuard, countGuard?: DefinitionCountGuard): Promise<void>;
  /**
   * Writes `changes`, version `fromVersion + 1`, only while the stored version is `fromVersion`;
   * undefined when it is not (or the definition is gone).
   */
  update(
    tenantId: string,
    id: string,
    fromVersion: number,
    changes: DefinitionChanges,
    audit: DefinitionAudit,
    guard?: IndexedFieldGuard,
  ): Promise<FieldDefinition | undefined>;
  /** Soft delete under the same version condition; whether it happened. */
  softDelete(tenantId: string, id: string, fromVersion: number, audit: DefinitionAudit): Promise<boolean>;
  /** The definition's audit rows past `after`, oldest first; deleted definitions included. */
  listAudit(tenantId: string, definitionId: string, after: Cursor | undefined, limit: number): Promise<DefinitionAuditEntry[]>;
}

/**
 * The small key-value port the definition cache needs: Redis in production, a Map in one process.
 * Values are strings; a key set without a TTL stays until deleted.
 */
export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  /** Many keys in one round trip; absent keys answer undefined, in order. */
  getMany(keys: readonly string[]): Promise<(string | undefined)[]>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  del(...keys: string[]): Promise<void>;
  /** Adds one and answers the new value; an absent key counts from 0. */
  incr(key: string): Promise<number>;
  /** Every key that starts with `prefix` (a literal prefix, not a pattern). */
  keysWithPrefix(prefix: string): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
