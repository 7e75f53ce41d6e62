/**
 * The use cases every entity module with custom fields shares (Customers, Products, ...): create
 * with defaults resolved, get, update with only the supplied custom fields validated and an
 * optional expected version, and a keyset-paged list filtered by `fieldKey__op=value`. A module
 * declares its own columns `F`, its exact-match list filters `X` and an EntityKind; everything
 * about custom fields goes through EntityCustomFields, never around it.
 */
import type { Actor } from "../../domain/actor.js";
import { ensureBeforeDeadline, withinDeadline, type CallScope } from "../../domain/call-scope.js";
import { AppError, type ErrorReason } from "../../domain/errors.js";
import { readPage } from "../../domain/pagination.js";
import type { CustomFieldEntity, CustomFieldEntityChanges, CustomFieldEntityCatalog, EntityCustomFields } from "./port.js";

export interface CustomFieldEntityDeps<F, X> {
  store: CustomFieldEntityCatalog<F, X>;
  customFields: EntityCustomFields;
  now(): Date;
  newId(): string;
}

/** Who the module is: the entity type its fields are defined under, and how its refusals read. */
export interface EntityKind {
  entityType: string;
  /** Lower case, for messages: "customer". */
  noun: string;
  notFound: ErrorReason;
}

/**
 * Defaults, merge and validation of the custom fields come from the custom fields service. With
 * `call`, the insert is bounded by its deadline: cut off, it commits nothing.
 */
export async function createEntity<F extends object, X>(
  kind: EntityKind,
  deps: CustomFieldEntityDeps<F, X>,
  actor: Actor,
  fields: F,
  values: Record<string, unknown> | undefined,
  call?: CallScope,
): Promise<CustomFieldEntity<F>> {
  const context = { entity: { ...fields, customFields: values ?? {} } };
  const customFields = await deps.customFields.resolveForCreate(actor, kind.entityType, values, context);
  const now = deps.now();
  const entity: CustomFieldEntity<F> = { ...fields, id: deps.newId(), tenantId: actor.tenantId, customFields, version: 1, createdAt: now, updatedAt: now };
  ensureBeforeDeadline(call);
  await withinDeadline(call, () => deps.store.insert(entity, call));
  return entity;
}

/** Another tenant's entity behaves exactly like one that does not exist. */
export async function findEntityOrFail<F, X>(kind: EntityKind, deps: CustomFieldEntityDeps<F, X>, actor: Actor, id: string): Promise<CustomFieldEntity<F>> {
  const found = await deps.store.find(actor.tenantId, id);
  if (!found) throw new AppError(kind.notFound, `${kind.noun} ${id} not found`);
  return found;
}

export interface EntityUpdate<F> {
  id: string;
  expectedVersion?: number;
  /** The own columns to change; undefined members keep their values. */
  fields: Partial<F>;
  /** Only these keys are validated and written; the others keep their values. */
  customFields?: Record<string, unknown>;
}

/** Defaults are not evaluated on update; only supplied custom fields are validated. `call`: as for create. */
export async function updateEntity<F, X>(
  kind: EntityKind,
  deps: CustomFieldEntityDeps<F, X>,
  actor: Actor,
  input: EntityUpdate<F>,
  call?: CallScope,
): Promise<CustomFieldEntity<F>> {
  let customFields: Record<string, unknown> | undefined;
  if (input.customFields !== undefined) {
    const context = { entity: { id: input.id, ...input.fields, customFields: input.customFields } };
    customFields = await deps.customFields.validateForUpdate(actor, kind.entityType, input.customFields, context);
  }
  const changes = { ...input.fields, expectedVersion: input.expectedVersion, customFields } as CustomFieldEntityChanges<F>;
  ensureBeforeDeadline(call);
  const updated = await withinDeadline(call, () => deps.store.update(actor.tenantId, input.id, changes, deps.now(), call));
  if (updated) return updated;
  const current = await findEntityOrFail(kind, deps, actor, input.id);
  throw new AppError(
    "VERSION_CONFLICT",
    `${kind.noun} ${input.id} is at version ${current.version}, not the expected ${input.expectedVersion}`,
    { metadata: { currentVersion: String(current.version) } },
  );
}

export interface EntityListInput<X> {
  /** Exact-match filters of the module's own columns; undefined members filter nothing. */
  exact: X;
  /** Every other query parameter: `fieldKey__op=value` custom field filters. */
  filters: Readonly<Record<string, string>>;
  pageSize: number;
  pageToken: string;
}

export interface EntityPage<F> {
  items: CustomFieldEntity<F>[];
  nextPageToken: string;
}

export async function listEntities<F, X extends object>(
  kind: EntityKind,
  deps: CustomFieldEntityDeps<F, X>,
  actor: Actor,
  input: EntityListInput<X>,
): Promise<EntityPage<F>> {
  const customFilter =
    Object.keys(input.filters).length === 0 ? { clauses: [] } : await deps.customFields.parseFilters(actor, kind.entityType, input.filters);
  // A token is bound to its query: the same filters, in any parameter order.
  const exact = Object.entries(input.exact).filter(([, value]) => value !== undefined);
  const filterKey = JSON.stringify([exact.sort(), Object.entries(input.filters).sort()]);
  return readPage(
    { pageSize: input.pageSize, pageToken: input.pageToken, filterKey },
    (after, limit) => deps.store.list(actor.tenantId, { ...input.exact, customFilter }, after, limit),
    (entity) => ({ at: entity.createdAt, id: entity.id }),
  );
}
