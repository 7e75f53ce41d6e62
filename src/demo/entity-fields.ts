/**
 * The fields of one entity type on the form: the module's own columns, then its active, visible
 * custom fields by display order. It collects what the user entered and shows what the offline
 * resolution (or the server) said about each field.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { isActiveDefinition, type FieldDefinition } from "../domain/customfields/definition.js";
import type { Resolution } from "../domain/customfields/resolution.js";
import { el } from "./dom.js";
import type { EntityKind } from "./entity-kinds.js";
import type { SubmitViolation } from "./entity-submit.js";
import { FieldInput } from "./field-input.js";
import { FieldRow } from "./field-row.js";

interface StandardInput {
  row: FieldRow;
  input: HTMLInputElement;
}

export class EntityFields {
  readonly element: HTMLDivElement;
  private readonly standard = new Map<string, StandardInput>();
  private readonly custom: FieldInput[];

  constructor(
    private readonly kind: EntityKind,
    definitions: readonly FieldDefinition[],
    onInput: () => void,
  ) {
    for (const field of kind.standardFields) {
      const input = el("input", { type: field.inputType, placeholder: field.placeholder, autocomplete: "off" });
      input.addEventListener("input", onInput);
      const row = new FieldRow(field.key, field.label, input);
      row.setRequired(field.required);
      this.standard.set(field.key, { row, input });
    }
    // Hidden fields are not rendered; resolution still gives them their defaults, as the server does.
    const shown = definitions.filter((def) => isActiveDefinition(def) && !def.uiConfig.hidden);
    this.custom = shown.map((def) => new FieldInput(def, onInput));
    this.element = el(
      "div",
      { class: "entity-fields", "data-entity-type": kind.entityType },
      el("fieldset", {}, el("legend", {}, `${kind.entityType} fields`), ...[...this.standard.values()].map((s) => s.row.element)),
      el("fieldset", {}, el("legend", {}, "Custom fields"), ...this.custom.map((input) => input.row.element), this.custom.length === 0 ? el("p", { class: "empty" }, "No custom fields defined.") : undefined),
    );
  }

  standardValues(): Record<string, string> {
    return Object.fromEntries([...this.standard].map(([key, { input }]) => [key, input.value.trim()]));
  }

  /** Only what the user gave: the rest is resolved, offline now and by the server on create. */
  customValues(): JsonObject {
    const values: JsonObject = {};
    for (const input of this.custom) {
      const value = input.value();
      if (value !== undefined) values[input.key] = value as JsonObject[string];
    }
    return values;
  }

  /** The rule context's `entity`, as the module's create builds it on the server. */
  entityContext(): Record<string, unknown> {
    return { ...this.kind.entityOf(this.standardValues()), customFields: this.customValues() };
  }

  showResolution(resolution: Resolution): void {
    const explained = new Map(resolution.fields.map((field) => [field.fieldKey, field]));
    for (const input of this.custom) input.show(explained.get(input.key));
    for (const { row } of this.standard.values()) row.showViolation(undefined);
  }

  /** The server's violations (or those found before sending) next to their fields; the others cleared. */
  showViolations(violations: readonly SubmitViolation[]): void {
    const byField = new Map(violations.map((v) => [v.field, v.description]));
    for (const [key, { row }] of this.standard) row.showViolation(byField.get(key));
    for (const input of this.custom) if (byField.has(input.key)) input.row.showViolation(byField.get(input.key));
  }
}
