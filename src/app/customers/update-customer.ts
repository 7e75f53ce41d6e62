import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import { CUSTOMER_ENTITY_TYPE, findCustomerOrFail, type CustomersDeps } from "./deps.js";
import type { Customer } from "./port.js";

export interface UpdateCustomerInput {
  id: string;
  expectedVersion?: number;
  name?: string;
  email?: string;
  /** Only these keys are validated and written; the others keep their values. */
  customFields?: Record<string, unknown>;
}

/** Defaults are not evaluated on update; only supplied custom fields are validated. */
export async function updateCustomer(deps: CustomersDeps, actor: Actor, input: UpdateCustomerInput): Promise<Customer> {
  let customFields: Record<string, unknown> | undefined;
  if (input.customFields !== undefined) {
    const entity = { id: input.id, name: input.name, email: input.email, customFields: input.customFields };
    customFields = await deps.customFields.validateForUpdate(actor, CUSTOMER_ENTITY_TYPE, input.customFields, { entity });
  }
  const changes = { expectedVersion: input.expectedVersion, name: input.name, email: input.email, customFields };
  const updated = await deps.store.update(actor.tenantId, input.id, changes, deps.now());
  if (updated) return updated;
  const current = await findCustomerOrFail(deps, actor, input.id);
  throw new AppError(
    "VERSION_CONFLICT",
    `customer ${input.id} is at version ${current.version}, not the expected ${input.expectedVersion}`,
    { metadata: { currentVersion: String(current.version) } },
  );
}
