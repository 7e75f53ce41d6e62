import type { JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate, type FieldMask } from "@bufbuild/protobuf/wkt";
import type { EntityUpdate } from "../../app/entities/entity-custom-fields.js";
import type { CustomFieldEntityBase } from "../../app/entities/port.js";
import { validationFailed, type FieldViolation } from "../../domain/errors.js";
import { readUpdateMask } from "../update-mask.js";

/** The members every entity message with custom fields shares (Customer, Product, ...). */
export function entityMessageBase(entity: CustomFieldEntityBase) {
  return {
    id: entity.id,
    customFields: entity.customFields as JsonObject,
    version: entity.version,
    createdAt: timestampFromDate(entity.createdAt),
    updatedAt: timestampFromDate(entity.updatedAt),
  };
}

/** What every update request of an entity with custom fields carries. */
interface EntityUpdateRequest {
  id: string;
  expectedVersion?: number;
  updateMask?: FieldMask;
  customFields?: JsonObject;
}

/** One own column the update may write: its path in the mask, its property, the request's value. */
export type UpdatableColumn<F> = readonly [path: string, property: keyof F & string, value: unknown];

const PLUMBING = new Set(["id", "expected_version", "update_mask"]);

/**
 * The given fields: those the mask names, or with an empty mask those the request sets. A masked
 * own column must be set (none can be cleared); masked custom fields without a value give no keys.
 */
export function entityUpdateInput<F>(req: EntityUpdateRequest, columns: readonly UpdatableColumn<F>[]): EntityUpdate<F> {
  const mask = readUpdateMask(req.updateMask, new Set([...columns.map(([path]) => path), "custom_fields"]), PLUMBING);
  const violations: FieldViolation[] = [...mask.violations];
  const fields: Partial<F> = {};
  for (const [path, property, value] of columns) {
    if (!mask.writes(path, value !== undefined)) continue;
    if (value === undefined) violations.push({ field: path, description: "cannot be cleared" });
    else fields[property] = value as F[keyof F & string];
  }
  if (violations.length > 0) throw validationFailed(violations);
  const customFields = mask.writes("custom_fields", req.customFields !== undefined) ? (req.customFields ?? {}) : undefined;
  return { id: req.id, expectedVersion: req.expectedVersion, fields, customFields };
}
