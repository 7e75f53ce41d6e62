import type { Actor } from "../../domain/actor.js";
import { readPage } from "../../domain/pagination.js";
import { CUSTOMER_ENTITY_TYPE, type CustomersDeps } from "./deps.js";
import type { Customer } from "./port.js";

export interface ListCustomersInput {
  /** Exact match. */
  name?: string;
  /** Exact match. */
  email?: string;
  /** Every other query parameter: `fieldKey__op=value` custom field filters. */
  filters: Readonly<Record<string, string>>;
  pageSize: number;
  pageToken: string;
}

export interface CustomerPage {
  customers: Customer[];
  nextPageToken: string;
}

export async function listCustomers(deps: CustomersDeps, actor: Actor, input: ListCustomersInput): Promise<CustomerPage> {
  const customFilter =
    Object.keys(input.filters).length === 0
      ? { clauses: [] }
      : await deps.customFields.parseFilters(actor, CUSTOMER_ENTITY_TYPE, input.filters);
  // A token is bound to its query: the same filters, in any parameter order.
  const filterKey = JSON.stringify([input.name ?? null, input.email ?? null, Object.entries(input.filters).sort()]);
  const page = await readPage(
    { pageSize: input.pageSize, pageToken: input.pageToken, filterKey },
    (after, limit) => deps.store.list(actor.tenantId, { name: input.name, email: input.email, customFilter }, after, limit),
    (customer) => ({ at: customer.createdAt, id: customer.id }),
  );
  return { customers: page.items, nextPageToken: page.nextPageToken };
}
