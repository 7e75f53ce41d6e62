/**
 * The offline custom fields client for browsers and Node. The Node-only file store is imported
 * from `./file-store.js` directly, so a browser bundle never sees `node:fs`.
 */
export { createFieldsClient, NotSyncedError, type FieldsClient, type FieldsClientOptions, type SyncResult } from "./fields-client.js";
export { memoryStore, type FieldsStore, type StoredDocument } from "./store.js";
export { indexedDbStore, type IndexedDbStoreOptions } from "./indexeddb-store.js";
