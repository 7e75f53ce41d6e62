/**
 * The offline client layer of custom fields: it syncs a tenant's definitions per entity type into
 * a store, revalidates them with one cheap call (SyncFieldDefinitions answers `not_modified` while
 * the version is unchanged), and resolves and validates values offline with the server's own
 * domain code (values.ts), the server's rule context and the same definitions, so a form gets the
 * answer the server will give. Nothing here imports Node built-ins; in browsers `pattern` runs on
 * re2js instead of re2-wasm (package.json's `browser` field, docs/fields-client.md).
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { fromJson, toJson } from "@bufbuild/protobuf";
import { createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { OrganizationService } from "@files-and-fields/client/gen/customfields/v1/organization_service_pb.js";
import { FieldDefinitionSchema } from "@files-and-fields/client/gen/customfields/v1/types_pb.js";
import { ruleContext } from "../../../../src/app/customfields/rule-context.js";
import type { UserProfile } from "../../../../src/domain/actor.js";
import type { FieldDefinition } from "../../../../src/domain/customfields/definition.js";
import { DEFAULT_CUSTOM_FIELD_LIMITS, type CustomFieldLimits } from "../../../../src/domain/customfields/limits.js";
import { resolveTraced, type Resolution } from "../../../../src/domain/customfields/resolution.js";
import { resolveForCreate, validateForUpdate, type CustomFieldValues } from "../../../../src/domain/customfields/values.js";
import { bearerInterceptor, type TokenSource } from "../clients/browser.js";
import { fromDefinitionMessage } from "../../../../src/contract/field-definition-messages.js";
import { organizationContextOf } from "./organization.js";
import type { FieldsStore, StoredDocument } from "./store.js";

interface CommonOptions {
  store: FieldsStore;
  /**
   * The user the token names: `id` is its `sub`, the rest its identity claims (name, email, role,
   * branch_id as branchId). Rules and formulas see it as `user`, as on the server.
   */
  user: { id: string } & UserProfile;
  /**
   * Separates the entries of the tenants and users sharing one store (a browser profile, a
   * file): required, so that no two callers ever fall into one shared default. Name at least the
   * tenant; name the user too when users of one tenant must not read each other's copies.
   */
  namespace: string;
  /** The server's pattern and formula bounds when it runs with other than the defaults. */
  limits?: CustomFieldLimits;
  /** The clock rules and formulas see as `timestamp`. */
  now?: () => Date;
}

export type FieldsClientOptions = CommonOptions & ({ transport: Transport } | { baseUrl: string; token: TokenSource });

export interface SyncResult {
  version: string;
  /** Whether the stored copy was replaced (first sync or a change); false on not_modified. */
  changed: boolean;
  /** The server could not be reached: the stored copy stands. */
  offline: boolean;
}

/** Thrown when there is nothing stored to evaluate with and the server cannot be reached. */
export class NotSyncedError extends Error {
  constructor(what: string, options?: { cause?: unknown }) {
    super(`${what} was never synced and the server cannot be reached`, options);
    this.name = "NotSyncedError";
  }
}

export interface FieldsClient {
  /** Revalidates the stored definitions of an entity type (fetching them on the first call). */
  sync(entityType: string): Promise<SyncResult>;
  /**
   * Fetches the tenant's organization profile, which rules and formulas see as `organization`
   * (permission organization:READ). Without it the client evaluates as for a tenant with none.
   */
  syncOrganization(): Promise<SyncResult>;
  /** The stored definitions, active and inactive, by display order; syncs first when none are stored. */
  definitions(entityType: string): Promise<FieldDefinition[]>;
  /** What ResolveValuesForCreate answers, computed offline; throws the same AppError it would. */
  resolveForCreate(entityType: string, values: unknown, context?: Readonly<Record<string, unknown>>): Promise<CustomFieldValues>;
  /**
   * What ExplainValuesForCreate answers, computed offline: the values and, per field, its source,
   * the checks made ("required" among them when the field is required) and its violation. It does
   * not throw on violations, so a form can show computed values next to the problems.
   */
  explainForCreate(entityType: string, values: unknown, context?: Readonly<Record<string, unknown>>): Promise<Resolution>;
  /** What ValidateValuesForUpdate answers, computed offline. */
  validateForUpdate(entityType: string, values: unknown, context?: Readonly<Record<string, unknown>>): Promise<CustomFieldValues>;
}

/** What one sync call answered: a document to store, or that the stored one is current. */
type Answer = { version: string; notModified: true } | { version: string; notModified: false; data: JsonValue };

export function createFieldsClient(options: FieldsClientOptions): FieldsClient {
  const transport = transportOf(options);
  const fieldsApi = createClient(CustomFieldsService, transport);
  const organizationApi = createClient(OrganizationService, transport);
  const { store, user } = options;
  const namespace = requiredNamespace(options.namespace);
  const limits = options.limits ?? DEFAULT_CUSTOM_FIELD_LIMITS;
  const now = options.now ?? (() => new Date());
  const definitionsKey = (entityType: string) => `${namespace}:${entityType}`;
  const organizationKey = `${namespace}:organization`;
  const { id, ...profile } = user;
  const actor = { tenantId: namespace, actorId: id, profile };
  // Mapping the JSON form to domain definitions once per stored version, not per evaluation.
  const mapped = new Map<string, { version: string; definitions: FieldDefinition[] }>();

  /** One revalidation: the stored copy stands when the server says so or cannot be reached. */
  async function revalidate(key: string, what: string, fetch: (known: string) => Promise<Answer>): Promise<SyncResult> {
    const stored = await store.get(key);
    const answer = await fetch(stored?.version ?? "").catch((error: unknown) => {
      if (stored === undefined) throw new NotSyncedError(what, { cause: error });
      return undefined;
    });
    if (answer === undefined) return { version: stored!.version, changed: false, offline: true };
    const syncedAt = now().toISOString();
    if (answer.notModified) {
      if (stored === undefined) throw new Error(`the server answered not_modified for ${what} without a known version`);
      await store.put(key, { ...stored, syncedAt });
      return { version: answer.version, changed: false, offline: false };
    }
    await store.put(key, { version: answer.version, data: answer.data, syncedAt });
    // A profile is answered whole every time: it changed when its version did.
    return { version: answer.version, changed: stored?.version !== answer.version, offline: false };
  }

  const sync = (entityType: string) =>
    revalidate(definitionsKey(entityType), `the definitions of ${entityType}`, async (knownVersion) => {
      const res = await fieldsApi.syncFieldDefinitions({ entityType, knownVersion });
      if (res.notModified) return { version: res.version, notModified: true };
      return { version: res.version, notModified: false, data: res.definitions.map((def) => toJson(FieldDefinitionSchema, def)) };
    });

  const syncOrganization = () =>
    revalidate(organizationKey, "the organization profile", async () => {
      const res = await organizationApi.getOrganizationProfile({});
      return { version: String(res.organization?.version ?? 0), notModified: false, data: (organizationContextOf(res.organization) ?? null) as JsonValue };
    });

  async function definitions(entityType: string): Promise<FieldDefinition[]> {
    let stored = await store.get(definitionsKey(entityType));
    if (stored === undefined) {
      await sync(entityType);
      stored = (await store.get(definitionsKey(entityType)))!;
    }
    return toDomain(entityType, stored);
  }

  function toDomain(entityType: string, stored: StoredDocument): FieldDefinition[] {
    const hit = mapped.get(entityType);
    if (hit?.version === stored.version) return hit.definitions;
    const defs = (stored.data as JsonValue[]).map((json) => fromDefinitionMessage(fromJson(FieldDefinitionSchema, json)));
    mapped.set(entityType, { version: stored.version, definitions: defs });
    return defs;
  }

  /** The server's context (caller keys, then user, organization and timestamp), by the server's own function. */
  async function contextOf(context: Readonly<Record<string, unknown>> | undefined, at: Date) {
    const organization = (await store.get(organizationKey))?.data;
    return ruleContext(actor, context, at, (organization ?? undefined) as Record<string, unknown> | undefined);
  }

  return {
    sync,
    syncOrganization,
    definitions,
    async resolveForCreate(entityType, values, context) {
      const defs = await definitions(entityType);
      const at = now();
      return resolveForCreate(defs, values, await contextOf(context, at), at, limits);
    },
    async explainForCreate(entityType, values, context) {
      const defs = await definitions(entityType);
      const at = now();
      return resolveTraced(defs, values, await contextOf(context, at), at, limits);
    },
    async validateForUpdate(entityType, values, context) {
      const defs = await definitions(entityType);
      const at = now();
      return validateForUpdate(defs, values, await contextOf(context, at), at, limits);
    },
  };
}

/** Plain JavaScript callers get no compile error for a missing namespace: they get this one. */
function requiredNamespace(namespace: unknown): string {
  if (typeof namespace !== "string" || namespace.trim() === "") {
    throw new TypeError("createFieldsClient: `namespace` is required (the tenant, and the user where users must be kept apart)");
  }
  return namespace;
}

function transportOf(options: FieldsClientOptions): Transport {
  if ("transport" in options) return options.transport;
  return createConnectTransport({ baseUrl: options.baseUrl, interceptors: [bearerInterceptor(options.token)] });
}
