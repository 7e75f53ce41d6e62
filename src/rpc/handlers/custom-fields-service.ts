import type { JsonObject } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { CustomFieldsService } from "../../../gen/customfields/v1/custom_fields_service_pb.js";
import { cacheStats } from "../../app/customfields/cache-stats.js";
import { createDefinition } from "../../app/customfields/create-definition.js";
import { definitionAudit } from "../../app/customfields/definition-audit.js";
import { deleteDefinition } from "../../app/customfields/delete-definition.js";
import type { CustomFieldsDeps } from "../../app/customfields/deps.js";
import { listDefinitions } from "../../app/customfields/list-definitions.js";
import { parseFilterQuery } from "../../app/customfields/parse-filters.js";
import { resolveValues } from "../../app/customfields/resolve-values.js";
import { updateDefinition } from "../../app/customfields/update-definition.js";
import { validateValues } from "../../app/customfields/validate-values.js";
import { actorOf } from "./actor.js";
import { toDefinitionAuditMessage } from "./definition-audit-mapper.js";
import { createInput, toDefinitionMessage, toFilterMessage, updateInput } from "./field-definition-mapper.js";

/** Translates between the contract and the custom field use cases, and nothing else. */
export function registerCustomFieldsService(router: ConnectRouter, deps: CustomFieldsDeps): void {
  router.service(CustomFieldsService, {
    async createFieldDefinition(req, ctx) {
      const def = await createDefinition(deps, actorOf(ctx), createInput(req));
      return { fieldDefinition: toDefinitionMessage(def) };
    },
    async listFieldDefinitions(req, ctx) {
      const defs = await listDefinitions(deps, actorOf(ctx), req.entityType);
      return { fieldDefinitions: defs.map(toDefinitionMessage) };
    },
    async updateFieldDefinition(req, ctx) {
      const def = await updateDefinition(deps, actorOf(ctx), updateInput(req));
      return { fieldDefinition: toDefinitionMessage(def) };
    },
    async deleteFieldDefinition(req, ctx) {
      await deleteDefinition(deps, actorOf(ctx), req.id);
      return {};
    },
    async listFieldDefinitionAudit(req, ctx) {
      const page = await definitionAudit(deps, actorOf(ctx), req.id, req.pageSize, req.pageToken);
      return { auditEntries: page.items.map(toDefinitionAuditMessage), nextPageToken: page.nextPageToken };
    },
    async getCacheStats(_req, ctx) {
      const stats = await cacheStats(deps, actorOf(ctx));
      return { ...stats, hits: BigInt(stats.hits), misses: BigInt(stats.misses) };
    },
    async resolveValuesForCreate(req, ctx) {
      const values = await resolveValues(deps, actorOf(ctx), { entityType: req.entityType, customFields: req.customFields, context: req.context });
      return { customFields: values as JsonObject };
    },
    async validateValuesForUpdate(req, ctx) {
      const values = await validateValues(deps, actorOf(ctx), { entityType: req.entityType, customFields: req.customFields, context: req.context });
      return { customFields: values as JsonObject };
    },
    async parseFilters(req, ctx) {
      const filter = await parseFilterQuery(deps, actorOf(ctx), { entityType: req.entityType, query: req.query });
      return { filter: toFilterMessage(filter) };
    },
  });
}
