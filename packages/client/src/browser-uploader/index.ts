/** The browser uploader: see docs/browser-uploader.md. Browser code only (no Node APIs). */
export { createUpload, Upload, type UploadOptions, type UploadStep } from "./uploader.js";
export { UploadQueue, type FailedUpload, type UploadQueueOptions } from "./queue.js";
export { indexedDbQueueStore, MemoryQueueStore, type QueueRecord, type UploadQueueStore, type UploadRecipe } from "./queue-store.js";
export { checkClassRules, objectClasses, objectClassNames, rulesFor, type ObjectClassRules } from "./class-rules.js";
export { createConnectUploadApi, createFileStorageClient, toApiError, toUploadedObject, type ApiClientOptions, type FileStorageClient } from "./connect-api.js";
export { ApiError, UploadError, type UploadErrorReason } from "./errors.js";
export { backoffDelay, DEFAULT_RETRY, type RetryPolicy } from "./backoff.js";
export { alwaysOnline, browserClock, browserNetwork, type Clock, type NetworkStatus } from "./runtime.js";
export { xhrTransfer } from "./xhr-transfer.js";
export type { Transfer, TransferRequest, TransferResponse, UploadApi } from "./upload-api.js";
export { CANCELLABLE_STATES, END_STATES } from "./types.js";
export type * from "./types.js";
