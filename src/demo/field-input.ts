/**
 * The control of one custom field, chosen by its type, and what the user entered in it.
 *
 * A field the user has not touched sends nothing, so its default comes from resolution exactly as
 * on the server, and the control shows that resolved default; once touched it sends what it holds.
 * Emptying a field sends nothing again, so its default applies on create (the server's rule).
 */
import type { FieldDefinition } from "../domain/customfields/definition.js";
import type { FieldExplanation } from "../domain/customfields/resolution.js";
import { el } from "./dom.js";
import { FieldRow } from "./field-row.js";

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLOutputElement;

export class FieldInput {
  readonly row: FieldRow;
  private readonly control: Control;
  private touched = false;

  constructor(
    private readonly def: FieldDefinition,
    onInput: () => void,
  ) {
    this.control = controlFor(def);
    if (this.acceptsInput) {
      const touch = () => {
        this.touched = true;
        onInput();
      };
      this.control.addEventListener("input", touch);
      this.control.addEventListener("change", touch);
    }
    this.row = new FieldRow(def.fieldKey, def.fieldLabel, this.control, def.description);
    this.row.element.dataset.type = def.fieldType.toLowerCase();
  }

  get key(): string {
    return this.def.fieldKey;
  }

  /** Computed fields are always calculated and readOnly ones are left to their defaults. */
  private get acceptsInput(): boolean {
    return this.def.fieldType !== "COMPUTED" && this.def.defaultStrategy !== "COMPUTED" && !this.def.uiConfig.readOnly;
  }

  /** The user's value in the request's JSON form; undefined when they gave none. */
  value(): unknown {
    if (!this.acceptsInput || !this.touched) return undefined;
    const control = this.control;
    if (control instanceof HTMLInputElement && control.type === "checkbox") return control.checked;
    const raw = control.value.trim();
    if (raw === "") return undefined;
    if (this.def.fieldType === "NUMBER") return Number(raw);
    if (this.def.fieldType === "JSON") return parsedOrRaw(raw);
    return raw;
  }

  /** The offline resolution's answer for this field: its value where the user gave none, its problem, whether it is required. */
  show(explained: FieldExplanation | undefined): void {
    this.row.setRequired(explained?.constraints.some((check) => check.name === "required") ?? this.def.isRequired);
    this.row.showViolation(explained?.violation?.description);
    if (!this.touched) this.display(explained?.value);
  }

  private display(value: unknown): void {
    const control = this.control;
    if (control instanceof HTMLInputElement && control.type === "checkbox") control.checked = value === true;
    else control.value = displayed(value);
  }
}

function controlFor(def: FieldDefinition): Control {
  const placeholder = def.uiConfig.placeholder ?? "";
  const readOnly = def.uiConfig.readOnly === true;
  switch (def.fieldType) {
    case "COMPUTED":
      return el("output", { class: "computed" });
    case "BOOLEAN":
      return withReadOnly(el("input", { type: "checkbox" }), readOnly);
    case "NUMBER":
      return withReadOnly(el("input", { type: "number", step: "any", placeholder }), readOnly);
    case "DATE":
      return withReadOnly(el("input", { type: "date", placeholder }), readOnly);
    case "SELECT":
      return withReadOnly(selectFor(def), readOnly);
    case "JSON":
      return withReadOnly(el("textarea", { placeholder, rows: "2" }), readOnly);
    default:
      if (def.defaultStrategy === "COMPUTED") return el("output", { class: "computed" });
      return withReadOnly(el("input", { type: "text", placeholder }), readOnly);
  }
}

/** The options of uiConfig, else the allowed values of the validation; the empty choice sends nothing. */
function selectFor(def: FieldDefinition): HTMLSelectElement {
  const options = def.uiConfig.options.length > 0 ? def.uiConfig.options : (def.validation.enum ?? []).map((value) => ({ label: value, value }));
  const empty = el("option", { value: "" }, def.uiConfig.placeholder ?? "—");
  return el("select", {}, empty, ...options.map((option) => el("option", { value: option.value }, option.label)));
}

/** A select and a checkbox have no readOnly: they are disabled instead (and send nothing either way). */
function withReadOnly<T extends HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(control: T, readOnly: boolean): T {
  if (!readOnly) return control;
  if (control instanceof HTMLSelectElement || (control instanceof HTMLInputElement && control.type === "checkbox")) control.disabled = true;
  else control.readOnly = true;
  control.classList.add("read-only");
  return control;
}

function displayed(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** Invalid JSON is sent as typed, so the violation is the server's own. */
function parsedOrRaw(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
