/**
 * The entity types the custom fields form can create, each with its own columns as the module's
 * create request takes them (proto/customers/v1, proto/products/v1) and the call that creates it.
 * The custom fields are the same for every module: the definitions of that entity type.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import type { ApiClients } from "@files-and-fields/client/browser";

export interface StandardField {
  /** The create request's JSON name, which the server's violations name too. */
  key: string;
  label: string;
  inputType: "text" | "email" | "number";
  placeholder: string;
  /** The request's own rules refuse it empty (min_len, pattern, email). */
  required: boolean;
}

/** What the server answered for a created entity. */
export interface CreatedEntity {
  id: string;
  customFields: JsonObject;
}

export interface EntityKind {
  entityType: string;
  standardFields: StandardField[];
  /**
   * The entity's own columns as the server puts them in the rule context (`entity.name`,
   * `entity.priceCents`): the modules' create use cases build `entity` from the same fields.
   */
  entityOf(standard: Readonly<Record<string, string>>): Record<string, unknown>;
  /** What cannot even be put in a request (a price that is no whole number), by field key. */
  unsendable(standard: Readonly<Record<string, string>>): Record<string, string>;
  create(clients: ApiClients, standard: Readonly<Record<string, string>>, customFields: JsonObject): Promise<CreatedEntity>;
}

const customer: EntityKind = {
  entityType: "Customer",
  standardFields: [
    { key: "name", label: "Name", inputType: "text", placeholder: "ACME GmbH", required: true },
    { key: "email", label: "Email", inputType: "email", placeholder: "billing@acme.example", required: true },
  ],
  entityOf: (standard) => ({ name: standard.name ?? "", email: standard.email ?? "" }),
  unsendable: () => ({}),
  async create(clients, standard, customFields) {
    const { customer: created } = await clients.customers.createCustomer({ name: standard.name ?? "", email: standard.email ?? "", customFields });
    return { id: created?.id ?? "", customFields: created?.customFields ?? {} };
  },
};

const product: EntityKind = {
  entityType: "Product",
  standardFields: [
    { key: "sku", label: "SKU", inputType: "text", placeholder: "CHAIR-01", required: true },
    { key: "name", label: "Name", inputType: "text", placeholder: "Office chair", required: true },
    { key: "priceCents", label: "Price (cents)", inputType: "number", placeholder: "12900", required: false },
  ],
  entityOf: (standard) => ({ sku: standard.sku ?? "", name: standard.name ?? "", priceCents: centsOf(standard.priceCents) ?? 0 }),
  unsendable: (standard): Record<string, string> => (centsOf(standard.priceCents) === undefined ? { priceCents: "must be a whole number of cents" } : {}),
  async create(clients, standard, customFields) {
    const request = { sku: standard.sku ?? "", name: standard.name ?? "", priceCents: BigInt(centsOf(standard.priceCents) ?? 0), customFields };
    const { product: created } = await clients.products.createProduct(request);
    return { id: created?.id ?? "", customFields: created?.customFields ?? {} };
  },
};

/** An empty price is 0 cents, as proto3 sends an unset int64; anything but a whole number is none. */
function centsOf(raw: string | undefined): number | undefined {
  const cents = Number(raw?.trim() || "0");
  return Number.isSafeInteger(cents) ? cents : undefined;
}

export const entityKinds: readonly EntityKind[] = [customer, product];
