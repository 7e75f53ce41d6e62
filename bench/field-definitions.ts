/**
 * Twenty Customer field definitions for the resolve benchmark: 12 static of mixed types, 5
 * rule-based, 3 computed with formulas (one reading another computed field's inputs).
 */
import type { Condition, FieldDefinition, Rule } from "../src/domain/customfields/definition.js";
import { def as baseDef } from "../test/unit/customfields/fixtures.js";

/** The unit tests' builder, with this benchmark's ids, tenant and display order. */
function def(order: number, fieldKey: string, overrides: Partial<FieldDefinition>): FieldDefinition {
  return baseDef(fieldKey, { id: `bench_${fieldKey}`, tenantId: "bench", displayOrder: order, ...overrides });
}

const when = (operator: "AND" | "OR", ...conditions: Condition[]) => ({ operator, conditions });
const rule = (name: string, priority: number, condition: ReturnType<typeof when>, then: Rule["then"], otherwise?: Rule["else"]): Rule => ({
  name,
  priority,
  when: condition,
  then,
  ...(otherwise ? { else: otherwise } : {}),
});
const options = (...values: string[]) => ({ options: values.map((value) => ({ label: value, value })) });

export const resolveDefinitions: FieldDefinition[] = [
  def(1, "account_code", { isRequired: true, validation: { pattern: "^[A-Z]{2}-[0-9]{4}$" } }),
  def(2, "nickname", { defaultValue: "n/a", validation: { maxLength: 40 } }),
  def(3, "credit_limit", { fieldType: "NUMBER", defaultValue: "5000", validation: { min: 0, max: 1_000_000 } }),
  def(4, "discount_rate", { fieldType: "NUMBER", defaultValue: "0.1", validation: { min: 0, max: 0.5 } }),
  def(5, "newsletter", { fieldType: "BOOLEAN", defaultValue: "true" }),
  def(6, "vip", { fieldType: "BOOLEAN", defaultValue: "false" }),
  def(7, "since", { fieldType: "DATE", defaultValue: "2024-01-01" }),
  def(8, "renewal", { fieldType: "DATE", validation: { minDate: "2024-01-01" } }),
  def(9, "segment", { fieldType: "SELECT", defaultValue: "smb", uiConfig: options("smb", "mid", "ent") }),
  def(10, "channel", { fieldType: "SELECT", uiConfig: options("web", "phone", "partner") }),
  def(11, "prefs", { fieldType: "JSON", defaultValue: '{"theme":"dark","digest":"weekly"}' }),
  def(12, "notes", { validation: { maxLength: 500 } }),

  def(13, "currency", {
    defaultStrategy: "RULE_BASED",
    defaultValue: "USD",
    defaultRules: [rule("euro", 1, when("AND", { field: "entity.country", operator: "in", value: ["DE", "FR", "AT"] }), { defaultValue: "EUR" })],
  }),
  def(14, "language", {
    fieldType: "SELECT",
    defaultStrategy: "RULE_BASED",
    uiConfig: options("de", "en"),
    defaultRules: [rule("german", 1, when("OR", { field: "entity.country", operator: "equals", value: "DE" }, { field: "entity.country", operator: "equals", value: "AT" }), { defaultValue: "de" }, { defaultValue: "en" })],
  }),
  def(15, "payment_terms", {
    fieldType: "NUMBER",
    defaultStrategy: "RULE_BASED",
    defaultValue: "30",
    defaultRules: [
      rule("sales", 2, when("AND", { field: "user.role", operator: "equals", value: "sales" }), { defaultValue: 14 }),
      rule("big", 1, when("AND", { field: "entity.employees", operator: "greaterThan", value: 500 }), { defaultValue: 60 }),
    ],
  }),
  def(16, "region", {
    defaultStrategy: "RULE_BASED",
    defaultValue: "ROW",
    defaultRules: [rule("eu", 1, when("AND", { field: "entity.country", operator: "in", value: ["DE", "FR", "AT", "IT", "ES"] }), { defaultValue: "EU" })],
  }),
  def(17, "tax_id", {
    defaultStrategy: "RULE_BASED",
    defaultRules: [rule("de-tax", 1, when("AND", { field: "entity.country", operator: "equals", value: "DE" }, { field: "entity.vatRegistered", operator: "exists" }), { defaultValue: "pending" })],
    validationRules: [rule("de-required", 1, when("AND", { field: "entity.country", operator: "equals", value: "DE" }), { required: true })],
  }),

  def(18, "effective_limit", { fieldType: "NUMBER", defaultStrategy: "COMPUTED", computedFormula: "round(credit_limit * (1 - discount_rate), 2)" }),
  def(19, "segment_label", { fieldType: "COMPUTED", computedFormula: "uppercase(segment)" }),
  def(20, "priority", { fieldType: "COMPUTED", computedFormula: "vip ? 1 : (credit_limit > 10000 ? 2 : 3)" }),
];

export const resolveUserValues = { account_code: "AB-1234", renewal: "2025-06-30", channel: "web", credit_limit: "12000" };

export const resolveContext = { entity: { country: "DE", employees: 120, vatRegistered: true }, user: { role: "sales" } };
