/**
 * The demo page: a development token, a class and a file, the upload through the browser
 * uploader (queue, progress, states, scan result), the owner's files, and a custom fields form
 * that works offline (custom-fields-form.ts). Plain DOM.
 */
import {
  createConnectUploadApi,
  createFileStorageClient,
  createUpload,
  indexedDbQueueStore,
  objectClasses,
  UploadQueue,
  type FileStorageClient,
  type Upload,
  type UploadFile,
  type UploadRecipe,
} from "@files-and-fields/client/browser-uploader";
import { CustomFieldsForm } from "./custom-fields-form.js";
import { byId, el, errorText, formatBytes } from "./dom.js";
import { FileList } from "./file-list.js";
import { registerOfflineShell } from "./offline-shell.js";
import { UploadCard } from "./upload-card.js";

const tokenField = byId<HTMLTextAreaElement>("token");
const classSelect = byId<HTMLSelectElement>("objectClass");
const ownerType = byId<HTMLInputElement>("ownerType");
const ownerId = byId<HTMLInputElement>("ownerId");
const fileInput = byId<HTMLInputElement>("file");
const network = byId("network");

const client: FileStorageClient = createFileStorageClient({ baseUrl: location.origin, token: () => tokenField.value.trim() });
const api = createConnectUploadApi(client);
const owner = () => ({ ownerEntityType: ownerType.value.trim(), ownerEntityId: ownerId.value.trim() });
const files = new FileList(() => client, owner);
const fieldsForm = new CustomFieldsForm({
  tenant: () => byId<HTMLInputElement>("tenant").value.trim(),
  user: () => byId<HTMLInputElement>("user").value.trim(),
  token: () => tokenField.value.trim(),
  ensureToken: () => newToken(),
});

// Kept in IndexedDB: uploads still waiting (or running) when the page reloads are sent again.
const queue = new UploadQueue({
  concurrency: 2,
  store: indexedDbQueueStore("demo-upload-queue"),
  onStoreError: (error) => console.warn("upload queue not persisted", error),
  onChange: (q) => {
    const waiting = q.pending.length;
    network.className = q.paused ? "offline" : "";
    network.textContent = `${q.paused ? "offline: uploads wait for the network" : "online"} · ${q.running.length} running · ${waiting} waiting · ${q.failed.length} failed`;
  },
});

function fillClasses(): void {
  for (const rules of Object.values(objectClasses)) classSelect.append(el("option", { value: rules.name }, rules.name));
  classSelect.value = "GENERAL_DOCUMENT";
  const showRules = () => {
    const rules = objectClasses[classSelect.value as keyof typeof objectClasses];
    byId("rules").textContent = `${rules.name}: ${rules.allowedContentTypes.join(", ")} · at most ${formatBytes(rules.maxSizeBytes)} · retention ${rules.retention}`;
  };
  classSelect.addEventListener("change", showRules);
  showRules();
}

async function newToken(): Promise<void> {
  const tenant = byId<HTMLInputElement>("tenant").value.trim();
  const user = byId<HTMLInputElement>("user").value.trim();
  const status = byId("token-status");
  const res = await fetch(`/demo/token?${new URLSearchParams({ tenant, user })}`);
  if (!res.ok) {
    status.textContent = `No development token (${res.status}): ${await res.text()}. Paste a token instead.`;
    return;
  }
  tokenField.value = ((await res.json()) as { token: string }).token;
  status.textContent = `Token for tenant "${tenant}", user "${user}", with every permission.`;
  await files.refresh();
}

/** An upload with its card, from the form or from the stored queue after a reload. */
function uploadWithCard(file: UploadFile, recipe: Omit<UploadRecipe, "contentType" | "filename"> & Partial<UploadRecipe>): Upload {
  let card: UploadCard | undefined;
  const upload = createUpload(file, {
    ...recipe,
    api,
    onState: () => card?.render(),
    onProgress: () => card?.render(),
    onRetry: (info) => card?.showRetry(info),
  });
  card = new UploadCard(upload, recipe.objectClass);
  byId("uploads").prepend(card.element);
  return upload;
}

function refreshWhenStored(ended: Promise<Upload>): void {
  void ended.then((upload) => {
    if (upload.object) void files.refresh();
  });
}

function startUploads(): void {
  for (const file of fileInput.files ?? []) refreshWhenStored(queue.add(uploadWithCard(file, { objectClass: classSelect.value, ...owner() })));
  fileInput.value = "";
}

/** After the token: restored uploads call the API at once. The mark tells a waiting page (or test) it is done. */
async function restoreQueue(): Promise<void> {
  try {
    for (const ended of await queue.restore(uploadWithCard)) refreshWhenStored(ended);
  } finally {
    document.body.dataset.queueRestored = "true";
  }
}

/** After the token too (or its failure, offline): the form renders from IndexedDB when the sync cannot reach the server. */
async function startFieldsForm(): Promise<void> {
  try {
    await fieldsForm.load();
    await fieldsForm.restoreQueue();
  } finally {
    document.body.dataset.fieldsFormReady = "true";
  }
}

function init(): void {
  const params = new URLSearchParams(location.search);
  byId<HTMLInputElement>("tenant").value = params.get("tenant") ?? "demo";
  byId<HTMLInputElement>("user").value = params.get("user") ?? "demo-user";
  fillClasses();
  // Another tenant or user has its own definitions: the form syncs again with the new token.
  byId("new-token").addEventListener("click", () =>
    void newToken()
      .then(() => fieldsForm.load())
      .catch((e) => (byId("token-status").textContent = errorText(e))),
  );
  byId("upload").addEventListener("click", startUploads);
  byId("refresh").addEventListener("click", () => void files.refresh());
  ownerType.addEventListener("change", () => void files.refresh());
  ownerId.addEventListener("change", () => void files.refresh());
  void newToken()
    .catch((e) => (byId("token-status").textContent = errorText(e)))
    .finally(() => {
      void restoreQueue().catch((e) => console.warn("upload queue not restored", e));
      void startFieldsForm().catch((e) => console.warn("custom fields form not started", e));
    });
  void registerOfflineShell().catch((e) => console.warn("the page will not open offline", e));
}

init();
