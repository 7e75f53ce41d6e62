import { defineSearchAttributeKey, SearchAttributeType } from "@temporalio/common";

/** Registered on the Temporal server so that the UI can filter uploads by these. */
export const TENANT_ID = defineSearchAttributeKey("TenantId", SearchAttributeType.KEYWORD);
export const OBJECT_STATUS = defineSearchAttributeKey("ObjectStatus", SearchAttributeType.KEYWORD);
export const OBJECT_CLASS = defineSearchAttributeKey("ObjectClass", SearchAttributeType.KEYWORD);
export const OWNER_ENTITY_TYPE = defineSearchAttributeKey("OwnerEntityType", SearchAttributeType.KEYWORD);
/** MULTIPART or SINGLE_PUT: how initiate asked the client to send the bytes (set at start). */
export const UPLOAD_MODE = defineSearchAttributeKey("UploadMode", SearchAttributeType.KEYWORD);

/** Every key above: what a Temporal server must have registered before the workflows start. */
export const SEARCH_ATTRIBUTES = [TENANT_ID, OBJECT_STATUS, OBJECT_CLASS, OWNER_ENTITY_TYPE, UPLOAD_MODE] as const;
