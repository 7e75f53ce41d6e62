import type { ConnectRouter } from "@connectrpc/connect";
import { CustomersService } from "@files-and-fields/client/gen/customers/v1/customers_service_pb.js";
import { createCustomer } from "../../app/customers/create-customer.js";
import type { CustomersDeps } from "../../app/customers/deps.js";
import type { Customer, CustomerFields } from "../../app/customers/port.js";
import { getCustomer } from "../../app/customers/get-customer.js";
import { listCustomers } from "../../app/customers/list-customers.js";
import { updateCustomer } from "../../app/customers/update-customer.js";
import { callScopeOf } from "../call-scope.js";
import { actorOf } from "./actor.js";
import { entityMessageBase, entityUpdateInput } from "./custom-field-entity-messages.js";

/** Translates between the contract and the customer use cases, and nothing else. */
export function registerCustomersService(router: ConnectRouter, deps: CustomersDeps): void {
  router.service(CustomersService, {
    async createCustomer(req, ctx) {
      const customer = await createCustomer(deps, actorOf(ctx), { name: req.name, email: req.email, customFields: req.customFields }, callScopeOf(ctx));
      return { customer: toCustomerMessage(customer) };
    },
    async getCustomer(req, ctx) {
      return { customer: toCustomerMessage(await getCustomer(deps, actorOf(ctx), req.id)) };
    },
    async updateCustomer(req, ctx) {
      const input = entityUpdateInput<CustomerFields>(req, [
        ["name", "name", req.name],
        ["email", "email", req.email],
      ]);
      return { customer: toCustomerMessage(await updateCustomer(deps, actorOf(ctx), input, callScopeOf(ctx))) };
    },
    async listCustomers(req, ctx) {
      const page = await listCustomers(deps, actorOf(ctx), {
        exact: { name: req.name || undefined, email: req.email || undefined },
        filters: req.filters,
        pageSize: req.pageSize,
        pageToken: req.pageToken,
      });
      return { customers: page.items.map(toCustomerMessage), nextPageToken: page.nextPageToken };
    },
  });
}

function toCustomerMessage(customer: Customer) {
  return { ...entityMessageBase(customer), name: customer.name, email: customer.email };
}
