import type { Actor } from "../../domain/actor.js";
import type { FieldDefinition } from "../../domain/customfields/definition.js";
import { definitionsVersion } from "../../domain/customfields/definitions-version.js";
import { cachedDefinitions, type CustomFieldsDeps } from "./deps.js";

export type DefinitionsSync =
  | { version: string; notModified: true }
  | { version: string; notModified: false; definitions: FieldDefinition[] };

/**
 * What an offline client needs to resolve and validate as the server does: the very definitions
 * resolve-for-create reads (through the same cache, so a write's invalidation reaches both), the
 * inactive ones included because their keys are dropped rather than refused. Nothing but the
 * version when the client already holds it. The store answers live definitions by display order.
 */
export async function syncDefinitions(deps: CustomFieldsDeps, actor: Actor, entityType: string, knownVersion: string): Promise<DefinitionsSync> {
  const defs = await cachedDefinitions(deps, actor.tenantId, entityType);
  const version = definitionsVersion(defs);
  if (knownVersion === version) return { version, notModified: true };
  return { version, notModified: false, definitions: defs };
}
