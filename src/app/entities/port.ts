/**
 * The store every entity module with custom fields needs (Customers, Products, ...), in domain
 * terms; one generic adapter implements it for any table (src/adapters/postgres/custom-field-entity-store.ts).
 */
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

/** The store an entity module needs, in domain terms. */
export interface CustomFieldEntityStore<F, X> {
  insert(entity: CustomFieldEntity<F>): Promise<void>;
  find(tenantId: string, id: string): Promise<CustomFieldEntity<F> | undefined>;
  /** Undefined when no row matched (absent, another tenant's, or not at the expected version). */
  update(tenantId: string, id: string, changes: CustomFieldEntityChanges<F>, at: Date): Promise<CustomFieldEntity<F> | undefined>;
  /** Newest first, after the cursor. */
  list(tenantId: string, query: CustomFieldEntityQuery<X>, after: Cursor | undefined, limit: number): Promise<CustomFieldEntity<F>[]>;
}

