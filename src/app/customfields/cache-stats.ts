import type { Actor } from "../../domain/actor.js";
import type { DefinitionCacheStats } from "./definition-cache.js";
import type { CustomFieldsDeps } from "./deps.js";

/** The caller's tenant only: which entity types are cached, how many keys, hits and misses. */
export async function cacheStats(deps: CustomFieldsDeps, actor: Actor): Promise<DefinitionCacheStats> {
  return deps.cache.stats(actor.tenantId);
}
