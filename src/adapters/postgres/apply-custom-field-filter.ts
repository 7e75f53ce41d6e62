/**
 * What an entity module needs to list its rows by custom fields: the parsed filter (from the
 * ParseFilters call) compiled into the module's own query, so the whole list is one PostgreSQL
 * statement over the JSONB column (typed expression indexes serve it: custom-field-indexes.ts).
 *
 *   const filter = await customFields.parseFilters(actor, "Customer", query);
 *   const qb = em.createQueryBuilder(CustomerRow, "c").where({ tenantId });
 *   applyCustomFieldFilter(qb, filter);            // AND-ed to what the query already has
 *
 * or, with em.find: `em.find(CustomerRow, { tenantId, ...customFieldCondition(filter) })`.
 */
import { raw } from "@mikro-orm/core";
import type { QueryBuilder } from "@mikro-orm/postgresql";
import type { ParsedFilter } from "../../domain/customfields/filters.js";
import { compileFilterSql } from "./custom-field-filter-sql.js";

/** Adds the filter to `qb` (qualified with the builder's alias); an empty filter adds nothing. */
export function applyCustomFieldFilter<T extends object>(
  qb: QueryBuilder<T>,
  filter: ParsedFilter,
  column = "custom_fields",
): QueryBuilder<T> {
  if (filter.clauses.length === 0) return qb;
  const { sql, params } = compileFilterSql(filter, `${qb.alias}.${column}`);
  return qb.andWhere(sql, params);
}

/** The filter as a `where` member for em.find / em.count; spread it into the condition object. */
export function customFieldCondition(filter: ParsedFilter, column = "custom_fields"): Record<string, unknown> {
  if (filter.clauses.length === 0) return {};
  const { sql, params } = compileFilterSql(filter, column);
  return { [raw(sql, params)]: [] };
}
