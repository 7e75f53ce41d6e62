import type { JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { CustomersService, type UpdateCustomerRequest } from "../../../gen/customers/v1/customers_service_pb.js";
import { createCustomer } from "../../app/customers/create-customer.js";
import type { CustomersDeps } from "../../app/customers/deps.js";
import type { Customer } from "../../app/customers/port.js";
import { getCustomer } from "../../app/customers/get-customer.js";
import { listCustomers } from "../../app/customers/list-customers.js";
import { updateCustomer, type UpdateCustomerInput } from "../../app/customers/update-customer.js";
import { validationFailed, type FieldViolation } from "../../domain/errors.js";
import { readUpdateMask } from "../update-mask.js";
import { actorOf } from "./actor.js";

/** Translates between the contract and the customer use cases, and nothing else. */
export function registerCustomersService(router: ConnectRouter, deps: CustomersDeps): void {
  router.service(CustomersService, {
    async createCustomer(req, ctx) {
      const customer = await createCustomer(deps, actorOf(ctx), { name: req.name, email: req.email, customFields: req.customFields });
      return { customer: toCustomerMessage(customer) };
    },
    async getCustomer(req, ctx) {
      return { customer: toCustomerMessage(await getCustomer(deps, actorOf(ctx), req.id)) };
    },
    async updateCustomer(req, ctx) {
      return { customer: toCustomerMessage(await updateCustomer(deps, actorOf(ctx), updateInput(req))) };
    },
    async listCustomers(req, ctx) {
      const page = await listCustomers(deps, actorOf(ctx), {
        name: req.name || undefined,
        email: req.email || undefined,
        filters: req.filters,
        pageSize: req.pageSize,
        pageToken: req.pageToken,
      });
      return { customers: page.customers.map(toCustomerMessage), nextPageToken: page.nextPageToken };
    },
  });
}

function toCustomerMessage(customer: Customer) {
  return {
    id: customer.id,
    name: customer.name,
    email: customer.email,
    customFields: customer.customFields as JsonObject,
    version: customer.version,
    createdAt: timestampFromDate(customer.createdAt),
    updatedAt: timestampFromDate(customer.updatedAt),
  };
}

const PLUMBING = new Set(["id", "expected_version", "update_mask"]);
const WRITABLE = new Set(["name", "email", "custom_fields"]);

/**
 * The given fields: those the mask names, or with an empty mask those the request sets. A masked
 * name or email must be set (neither can be cleared); masked custom fields without a value give
 * no keys.
 */
function updateInput(req: UpdateCustomerRequest): UpdateCustomerInput {
  const mask = readUpdateMask(req.updateMask, WRITABLE, PLUMBING);
  const violations: FieldViolation[] = [...mask.violations];
  const given = mask.writes;
  for (const [path, field, value] of [["name", "name", req.name], ["email", "email", req.email]] as const) {
    if (given(path, value !== undefined) && value === undefined) violations.push({ field, description: "cannot be cleared" });
  }
  if (violations.length > 0) throw validationFailed(violations);
  return {
    id: req.id,
    expectedVersion: req.expectedVersion,
    name: given("name", req.name !== undefined) ? req.name : undefined,
    email: given("email", req.email !== undefined) ? req.email : undefined,
    customFields: given("custom_fields", req.customFields !== undefined) ? (req.customFields ?? {}) : undefined,
  };
}
