import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import { readPage, type Page } from "../../domain/pagination.js";
import type { CustomFieldsDeps } from "./deps.js";
import type { DefinitionAuditEntry } from "./port.js";

/**
 * Who created, changed and deleted a definition, oldest first. Read from the audit rows alone, so
 * a deleted definition keeps its history; an id the tenant never had is not found.
 */
export async function definitionAudit(
  deps: Pick<CustomFieldsDeps, "store">,
  actor: Actor,
  id: string,
  pageSize: number,
  pageToken: string,
): Promise<Page<DefinitionAuditEntry>> {
  const page = await readPage(
    { pageSize, pageToken, filterKey: `definition-audit:${id}` },
    (after, limit) => deps.store.listAudit(actor.tenantId, id, after, limit),
    (entry) => ({ at: entry.occurredAt, id: entry.id }),
  );
  if (page.items.length === 0 && !pageToken) throw new AppError("FIELD_DEFINITION_NOT_FOUND", `field definition ${id} not found`);
  return page;
}
