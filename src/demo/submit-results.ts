import type { QueuedSubmit } from "./submit-queue.js";
import type { SubmitOutcome } from "./entity-submit.js";
import { el } from "./dom.js";

/**
 * The outcomes of the form's submits, newest first: created (id and the server's values), refused
 * (reason and violations), or queued until the network is back, replaced by its outcome once sent.
 */
export class SubmitResults {
  constructor(private readonly list: HTMLOListElement) {}

  queued(entry: QueuedSubmit): void {
    const item = el(
      "li",
      { class: "submit", "data-state": "queued", "data-queue-id": String(entry.id) },
      el("span", { class: "state", "data-state": "queued" }, "QUEUED"),
      ` ${entry.entityType} ${summary(entry.standard)} · offline since ${new Date(entry.queuedAt).toLocaleTimeString()}: sent when the network is back`,
    );
    this.list.prepend(item);
  }

  /** The outcome of a submit; of a queued one when `queueId` is given, replacing its line. */
  show(entityType: string, standard: Readonly<Record<string, string>>, outcome: SubmitOutcome, queueId?: number): void {
    const item = el("li", { class: "submit", "data-state": outcome.kind }, ...lines(entityType, standard, outcome));
    if (outcome.kind === "created") item.dataset.entityId = outcome.entity.id;
    const waiting = queueId === undefined ? null : this.list.querySelector(`li[data-queue-id="${queueId}"]`);
    if (waiting) waiting.replaceWith(item);
    else this.list.prepend(item);
  }

  /** A submit that was neither sent nor queued, with why. */
  notSent(message: string): void {
    this.list.prepend(el("li", { class: "submit", "data-state": "not-sent" }, el("span", { class: "state", "data-state": "error" }, "NOT SENT"), ` ${message}`));
  }
}

function lines(entityType: string, standard: Readonly<Record<string, string>>, outcome: SubmitOutcome): (Node | string)[] {
  switch (outcome.kind) {
    case "created":
      return [
        el("span", { class: "state", "data-state": "ready" }, "CREATED"),
        ` ${entityType} ${summary(standard)}: `,
        el("code", { class: "entity-id" }, outcome.entity.id),
        el("pre", { class: "server-values" }, JSON.stringify(outcome.entity.customFields, null, 1)),
      ];
    case "refused":
      return [
        el("span", { class: "state", "data-state": "rejected" }, "REFUSED"),
        ` ${entityType} ${summary(standard)}: ${outcome.reason}`,
        el("ul", {}, ...outcome.violations.map((v) => el("li", { class: "failed", "data-field": v.field }, `${v.field}: ${v.description}`))),
      ];
    case "unreachable":
      return [el("span", { class: "state", "data-state": "error" }, "UNREACHABLE"), ` ${entityType} ${summary(standard)}: ${outcome.message}`];
  }
}

function summary(standard: Readonly<Record<string, string>>): string {
  return `"${standard.name ?? ""}"`;
}
