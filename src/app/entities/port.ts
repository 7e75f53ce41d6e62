/**
 * What the entity use cases (entity-custom-fields.ts, shared by Customers, Products, ...) need, in
 * domain terms: their store, which one generic adapter implements for any table
 * (src/adapters/postgres/custom-field-entity-store.ts), and the custom fields service
 * (in process: src/app/customfields/in-process-custom-fields.ts).
 */
import type { Actor } from "../../domain/actor.js";
import type { CallScope } from "../../domain/call-scope.js";
import type { RuleContext } from "../../domain/customfields/conditions.js";
import type { ParsedFilter } from "../../domain/customfields/filters.js";
import type { Cursor } from "../../domain/pagination.js";

/** What every stored entity with custom fields has, next to its own columns. */
export interface CustomFieldEntityBase {
  id: string;
  tenantId: string;
  customFields: Record<string, unknown>;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export type CustomFieldEntity<F> = F & CustomFieldEntityBase;

/** The given own columns, the validated values of the supplied custom field keys only (merged over the stored ones). */
export type CustomFieldEntityChanges<F> = Partial<F> & { expectedVersion?: number; customFields?: Record<string, unknown> };

export type CustomFieldEntityQuery<X> = X & { customFilter: ParsedFilter };

/**
 * The store an entity module needs, in domain terms. A write given `call` is bounded by its
 * remaining time: cut off, it commits nothing and fails DEADLINE_EXCEEDED.
 */
export interface CustomFieldEntityCatalog<F, X> {
  insert(entity: CustomFieldEntity<F>, call?: CallScope): Promise<void>;
  find(tenantId: string, id: string): Promise<CustomFieldEntity<F> | undefined>;
  /** Undefined when no row matched (absent, another tenant's, or not at the expected version). */
  update(tenantId: string, id: string, changes: CustomFieldEntityChanges<F>, at: Date, call?: CallScope): Promise<CustomFieldEntity<F> | undefined>;
  /** Newest first, after the cursor. */
  list(tenantId: string, query: CustomFieldEntityQuery<X>, after: Cursor | undefined, limit: number): Promise<CustomFieldEntity<F>[]>;
}

/**
 * The three integration calls of the custom fields service, as an entity module uses them. A
 * module in this process takes inProcessCustomFields(); one in another process would implement
 * the same interface with the generated client. Either way the same use cases answer.
 */
export interface EntityCustomFields {
  /** Defaults, the caller's values merged over them, validation of every field. */
  resolveForCreate(actor: Actor, entityType: string, values: unknown, context: RuleContext): Promise<Record<string, unknown>>;
  /** Validation (and coercion) of the supplied values only. */
  validateForUpdate(actor: Actor, entityType: string, values: unknown, context: RuleContext): Promise<Record<string, unknown>>;
  /** `fieldKey__op=value` parameters as a typed filter; unknown keys or operators are refused. */
  parseFilters(actor: Actor, entityType: string, query: Readonly<Record<string, string>>): Promise<ParsedFilter>;
}
