import { decodePageToken, encodePageToken, pageSizeOf } from "../../domain/pagination.js";
import { CUSTOMER_ENTITY_TYPE, type Actor, type Customer, type CustomersDeps } from "./deps.js";

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
  const limit = pageSizeOf(input.pageSize);
  // A token is bound to its query: the same filters, in any parameter order.
  const filterKey = JSON.stringify([input.name ?? null, input.email ?? null, Object.entries(input.filters).sort()]);
  const after = decodePageToken(input.pageToken, filterKey);
  const rows = await deps.store.list(actor.tenantId, { name: input.name, email: input.email, customFilter }, after, limit + 1);
  const customers = rows.slice(0, limit);
  const last = customers.at(-1);
  const nextPageToken = rows.length > limit && last ? encodePageToken({ createdAt: last.createdAt, id: last.id }, filterKey) : "";
  return { customers, nextPageToken };
}
