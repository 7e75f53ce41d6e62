import type { JsonObject } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { cacheStats } from "../../app/customfields/cache-stats.js";
import { createDefinition } from "../../app/customfields/create-definition.js";
import { definitionAudit } from "../../app/customfields/definition-audit.js";
import { explainValues } from "../../app/customfields/explain-values.js";
import { deleteDefinition } from "../../app/customfields/delete-definition.js";
import type { CustomFieldsDeps } from "../../app/customfields/deps.js";
import { listDefinitionsPage } from "../../app/customfields/list-definitions.js";
import { parseFilterQuery } from "../../app/customfields/parse-filters.js";
import { previewDefinition } from "../../app/customfields/preview-definition.js";
import { resolveValues } from "../../app/customfields/resolve-values.js";
import { syncDefinitions } from "../../app/customfields/sync-definitions.js";
import { updateDefinition } from "../../app/customfields/update-definition.js";
import { validateValues } from "../../app/customfields/validate-values.js";
import { validationFailed } from "../../domain/errors.js";
import { actorOf } from "./actor.js";
import { toDefinitionAuditMessage } from "./definition-audit-mapper.js";
import { toExplanationMessage } from "./explanation-mapper.js";
import { createInput, toDefinitionMessage, toFilterMessage, updateInput } from "./field-definition-mapper.js";

/** Translates between the contract and the custom field use cases, and nothing else. */
export function registerCustomFieldsService(router: ConnectRouter, deps: CustomFieldsDeps): void {
  router.service(CustomFieldsService, {
    async createFieldDefinition(req, ctx) {
      const def = await createDefinition(deps, actorOf(ctx), createInput(req));
      return { fieldDefinition: toDefinitionMessage(def) };
    },
    async listFieldDefinitions(req, ctx) {
      const page = await listDefinitionsPage(deps, actorOf(ctx), { entityType: req.entityType, pageSize: req.pageSize, pageToken: req.pageToken });
      return { fieldDefinitions: page.items.map(toDefinitionMessage), nextPageToken: page.nextPageToken };
    },
    async updateFieldDefinition(req, ctx) {
      const def = await updateDefinition(deps, actorOf(ctx), updateInput(req));
      return { fieldDefinition: toDefinitionMessage(def) };
    },
    async deleteFieldDefinition(req, ctx) {
      await deleteDefinition(deps, actorOf(ctx), req.id);
      return {};
    },
    async syncFieldDefinitions(req, ctx) {
      const sync = await syncDefinitions(deps, actorOf(ctx), req.entityType, req.knownVersion);
      return sync.notModified
        ? { version: sync.version, notModified: true }
        : { version: sync.version, definitions: sync.definitions.map(toDefinitionMessage) };
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
    async explainValuesForCreate(req, ctx) {
      const explanation = await explainValues(deps, actorOf(ctx), { entityType: req.entityType, customFields: req.customFields, context: req.context });
      return toExplanationMessage(explanation);
    },
    async validateValuesForUpdate(req, ctx) {
      const values = await validateValues(deps, actorOf(ctx), { entityType: req.entityType, customFields: req.customFields, context: req.context });
      return { customFields: values as JsonObject };
    },
    async parseFilters(req, ctx) {
      const filter = await parseFilterQuery(deps, actorOf(ctx), { entityType: req.entityType, query: req.query });
      return { filter: toFilterMessage(filter) };
    },
    async previewFieldDefinition(req, ctx) {
      // Required by the contract (protovalidate), so present here.
      const draft = createInput(req.draft!);
      if (draft.entityType !== req.entityType) {
        throw validationFailed([{ field: "draft.entityType", description: "must be the entity type of the preview" }]);
      }
      const sample = { customFields: req.customFields, context: req.context };
      const preview = await previewDefinition(deps, actorOf(ctx), { draft, sample });
      return { customFields: preview.customFields as JsonObject, violations: preview.violations };
    },
  });
}
