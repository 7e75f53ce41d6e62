/**
 * The demo page's custom fields form: pick an entity type, the fields client syncs its
 * definitions into IndexedDB and the form renders them; as the user types, the client resolves
 * the entity offline (defaults, rules, formulas, validation: the server's own code) and each field
 * shows its value and problem. Submit creates the entity through the API; when the server cannot
 * be reached the submit is queued in IndexedDB and sent on the `online` event.
 */
import { createBrowserClients, type ApiClients } from "@files-and-fields/client/browser";
import { createFieldsClient, indexedDbStore, type FieldsClient } from "@files-and-fields/client/fields-client";
import { byId, el, errorText } from "./dom.js";
import { EntityFields } from "./entity-fields.js";
import { entityKinds, type EntityKind } from "./entity-kinds.js";
import { submitEntity } from "./entity-submit.js";
import { ownerOfToken, type QueueOwner } from "./queue-owner.js";
import { SubmitQueue, type QueuedSubmit } from "./submit-queue.js";
import { SubmitResults } from "./submit-results.js";

export interface FormSession {
  tenant(): string;
  user(): string;
  token(): string;
  /** Gets a token when the page has none, as after a reload without network. */
  ensureToken(): Promise<void>;
}

export class CustomFieldsForm {
  private readonly typeSelect = byId<HTMLSelectElement>("fields-entity-type");
  private readonly status = byId("fields-status");
  private readonly container = byId("fields-entity");
  private readonly submitButton = byId<HTMLButtonElement>("fields-submit");
  private readonly results = new SubmitResults(byId<HTMLOListElement>("fields-results"));
  private readonly queue = new SubmitQueue();
  private readonly clients: ApiClients;
  private fieldsClient: { key: string; client: FieldsClient } | undefined;
  private fields: EntityFields | undefined;
  /** Answers of earlier keystrokes that arrive late are dropped. */
  private evaluation = 0;
  /** What the last evaluation would refuse; also on the container as `data-violations`. */
  private violations = 0;
  private flushing: Promise<void> | undefined;

  constructor(private readonly session: FormSession) {
    this.clients = createBrowserClients({ baseUrl: location.origin, token: () => session.token() });
    this.typeSelect.append(...entityKinds.map((kind) => el("option", { value: kind.entityType }, kind.entityType)));
    this.typeSelect.addEventListener("change", () => void this.load());
    byId("fields-sync").addEventListener("click", () => void this.load());
    byId<HTMLFormElement>("fields-entity-form").addEventListener("submit", (event) => {
      event.preventDefault();
      void this.submitOnce();
    });
    window.addEventListener("online", () => void this.backOnline().catch((error) => this.setStatus("error", errorText(error))));
  }

  private get kind(): EntityKind {
    return entityKinds.find((kind) => kind.entityType === this.typeSelect.value) ?? entityKinds[0]!;
  }

  /** One client per tenant and user, each with its own entries in IndexedDB. */
  private client(): FieldsClient {
    const key = `${this.session.tenant()}\n${this.session.user()}`;
    if (this.fieldsClient?.key !== key) {
      const client = createFieldsClient({
        baseUrl: location.origin,
        token: () => this.session.token(),
        user: { id: this.session.user() },
        store: indexedDbStore(),
        namespace: key,
      });
      this.fieldsClient = { key, client };
    }
    return this.fieldsClient.client;
  }

  /** Syncs the chosen type (the stored copy stands offline) and renders its fields. */
  async load(): Promise<void> {
    const kind = this.kind;
    this.setStatus("loading", `Syncing the ${kind.entityType} definitions…`);
    try {
      const client = this.client();
      const synced = await client.sync(kind.entityType);
      await client.syncOrganization().catch(() => undefined);
      this.fields = new EntityFields(kind, await client.definitions(kind.entityType), () => void this.evaluate());
      // Set again by the first evaluation: until then the new fields show no defaults yet.
      delete this.container.dataset.violations;
      this.container.replaceChildren(this.fields.element);
      this.setStatus(synced.offline ? "offline" : "synced", synced.offline ? `offline: the definitions stored in this browser (version ${synced.version})` : `definitions synced (version ${synced.version})`);
      await this.evaluate();
    } catch (error) {
      this.container.replaceChildren();
      this.setStatus("error", errorText(error));
    }
  }

  private async evaluate(): Promise<void> {
    const fields = this.fields;
    if (!fields) return;
    const turn = ++this.evaluation;
    try {
      const resolution = await this.client().explainForCreate(this.kind.entityType, fields.customValues(), { entity: fields.entityContext() });
      if (turn !== this.evaluation || fields !== this.fields) return;
      fields.showResolution(resolution);
      this.violations = resolution.violations.length;
      this.container.dataset.violations = String(this.violations);
    } catch (error) {
      if (turn === this.evaluation) this.setStatus("error", `evaluation failed: ${errorText(error)}`);
    }
  }

  /** Disabled while a submit is under way: a second click would create the entity twice. */
  private async submitOnce(): Promise<void> {
    this.submitButton.disabled = true;
    try {
      await this.submit();
    } catch (error) {
      this.results.notSent(errorText(error));
    } finally {
      this.submitButton.disabled = false;
    }
  }

  private async submit(): Promise<void> {
    const fields = this.fields;
    if (!fields) return;
    const kind = this.kind;
    const standard = fields.standardValues();
    const unsendable = Object.entries(kind.unsendable(standard)).map(([field, description]) => ({ field, description }));
    if (unsendable.length > 0) return fields.showViolations(unsendable);
    const customFields = fields.customValues();
    const outcome = await submitEntity(kind, this.clients, standard, customFields);
    if (outcome.kind === "unreachable") return this.enqueue({ entityType: kind.entityType, standard, customFields, queuedAt: new Date().toISOString() });
    this.results.show(kind.entityType, standard, outcome);
    if (outcome.kind === "refused") fields.showViolations(outcome.violations);
  }

  /** Queued only when the offline resolution finds nothing to refuse: the server would refuse it later, unseen. */
  private async enqueue(submit: Omit<QueuedSubmit, "tenant" | "user">): Promise<void> {
    if (this.violations > 0) return this.results.notSent(`offline, and ${this.violations} field(s) would be refused: fix them first`);
    const owner = this.queueOwner();
    if (!owner) return this.results.notSent("offline, and no tenant and user to keep the create for");
    const entry = { ...submit, ...owner };
    const id = await this.queue.add(entry);
    this.results.queued({ ...entry, id });
  }

  /** Lists what waits (after a reload), then sends it if the network is there. */
  async restoreQueue(): Promise<void> {
    const owner = this.queueOwner();
    if (owner) for (const entry of await this.queue.list(owner)) this.results.queued(entry);
    if (navigator.onLine) await this.sendQueued();
  }

  /** One pass at a time, so an entry is never sent twice by overlapping `online` events. */
  private sendQueued(): Promise<void> {
    this.flushing ??= this.sendEach().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /**
   * Whose creates this page queues and lists: the token's tenant and user; without a token (a
   * reload offline), the tenant and user the page will ask a token for. Sending checks the token.
   */
  private queueOwner(): QueueOwner | undefined {
    const token = this.session.token();
    if (token) return ownerOfToken(token);
    const declared = { tenant: this.session.tenant(), user: this.session.user() };
    return declared.tenant && declared.user ? declared : undefined;
  }

  /** Sent with the one token whose owner they are listed for, even if the page's token changes meanwhile. */
  private async sendEach(): Promise<void> {
    if (!this.session.token()) await this.session.ensureToken();
    const token = this.session.token();
    const owner = ownerOfToken(token);
    if (!owner) return;
    const clients = createBrowserClients({ baseUrl: location.origin, token: () => token });
    for (const entry of await this.queue.list(owner)) {
      const kind = entityKinds.find((k) => k.entityType === entry.entityType);
      if (!kind) continue;
      const outcome = await submitEntity(kind, clients, entry.standard, entry.customFields);
      if (outcome.kind === "unreachable") return;
      await this.queue.remove(entry.id!);
      this.results.show(entry.entityType, entry.standard, outcome, entry.id);
    }
  }

  /** The queue first, then the definitions: rendered again only when they changed meanwhile, keeping what was typed. */
  private async backOnline(): Promise<void> {
    await this.sendQueued();
    if (!this.fields) return this.load();
    const synced = await this.client().sync(this.kind.entityType);
    if (synced.changed) return this.load();
    if (!synced.offline) this.setStatus("synced", `definitions synced (version ${synced.version})`);
  }

  private setStatus(state: string, text: string): void {
    this.status.dataset.state = state;
    this.status.textContent = text;
  }
}
