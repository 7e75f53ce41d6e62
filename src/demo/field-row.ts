import { el } from "./dom.js";

/**
 * One labelled field of the custom fields form, standard or custom: its control, the required
 * mark, the description and the violation next to it. `data-field` is the key the server's
 * violations name (`name`, `customFields.credit` as `credit`), which the page and its tests use.
 */
export class FieldRow {
  readonly element: HTMLDivElement;
  private readonly mark = el("span", { class: "required-mark", title: "required" }, "*");
  private readonly violation = el("span", { class: "violation" });

  constructor(key: string, label: string, control: HTMLElement, description?: string) {
    const id = `field-${key}`;
    control.id = id;
    this.element = el(
      "div",
      { class: "field-row", "data-field": key },
      el("label", { for: id, class: "field-label" }, label, this.mark),
      control,
      description ? el("span", { class: "hint" }, description) : undefined,
      this.violation,
    );
    this.setRequired(false);
  }

  setRequired(required: boolean): void {
    this.element.classList.toggle("required", required);
    this.mark.hidden = !required;
  }

  showViolation(text: string | undefined): void {
    this.violation.textContent = text ?? "";
    this.element.classList.toggle("invalid", text !== undefined);
  }
}
