import { UPDATE_ANY_OBJECT_PERMISSION } from "../domain/files/upload-authority.js";

/**
 * Which permission each RPC needs (docs/decisions.md, Permissions). Keyed by the method's full
 * name so that every transport (gRPC, gRPC-Web, Connect, REST) is checked by the same table. An RPC
 * that is missing here is refused, never silently open.
 */
export const methodPermissions: Record<string, string> = {
  "filestorage.v1.FileStorageService/InitiateUpload": "stored_object:CREATE",
  "filestorage.v1.FileStorageService/CompleteUpload": "stored_object:CREATE",
  "filestorage.v1.FileStorageService/RefreshUploadUrl": "stored_object:CREATE",
  "filestorage.v1.FileStorageService/SignUploadParts": "stored_object:CREATE",
  "filestorage.v1.FileStorageService/ListUploadedParts": "stored_object:CREATE",
  "filestorage.v1.FileStorageService/AbortUpload": "stored_object:CREATE",
  "filestorage.v1.FileStorageService/GetUpload": "stored_object:READ",
  "filestorage.v1.FileStorageService/ListUploads": "stored_object:READ",
  "filestorage.v1.FileStorageService/CreateDownloadUrl": "stored_object:READ",
  "filestorage.v1.FileStorageService/ListAuditEntries": "stored_object:READ",
  "filestorage.v1.FileStorageService/DeleteUpload": "stored_object:DELETE",
  "filestorage.v1.FileStorageService/RestoreUpload": "stored_object:CREATE",
  "filestorage.v1.FileStorageService/PlaceLegalHold": "stored_object:LEGAL_HOLD_PLACE",
  "filestorage.v1.FileStorageService/ReleaseLegalHold": "stored_object:LEGAL_HOLD_RELEASE",
  "filestorage.v1.AuditService/SearchAuditEntries": "audit:READ",
  "filestorage.v1.AuditService/ExportAuditEntries": "audit:READ",
  "filestorage.v1.AuditService/VerifyAuditTrail": "audit:READ",
  "filestorage.v1.AuditService/CreateAuditCheckpoint": "audit:READ",
  "filestorage.v1.AuditService/ListAuditCheckpoints": "audit:READ",
  "filestorage.v1.AuditService/ListAuditSigningKeys": "audit:READ",
  "customfields.v1.CustomFieldsService/ListFieldDefinitionAudit": "custom_field_definition:READ",
  "customfields.v1.CustomFieldsService/CreateFieldDefinition": "custom_field_definition:CREATE",
  "customfields.v1.CustomFieldsService/ListFieldDefinitions": "custom_field_definition:READ",
  "customfields.v1.CustomFieldsService/SyncFieldDefinitions": "custom_field_definition:READ",
  "customfields.v1.CustomFieldsService/UpdateFieldDefinition": "custom_field_definition:UPDATE",
  "customfields.v1.CustomFieldsService/DeleteFieldDefinition": "custom_field_definition:DELETE",
  "customfields.v1.CustomFieldsService/GetCacheStats": "custom_field_definition:READ",
  "customfields.v1.CustomFieldsService/ResolveValuesForCreate": "custom_field_definition:READ",
  "customfields.v1.CustomFieldsService/ExplainValuesForCreate": "custom_field_definition:READ",
  "customfields.v1.CustomFieldsService/ValidateValuesForUpdate": "custom_field_definition:READ",
  "customfields.v1.CustomFieldsService/ParseFilters": "custom_field_definition:READ",
  "customfields.v1.CustomFieldsService/PreviewFieldDefinition": "custom_field_definition:READ",
  "customfields.v1.OrganizationService/GetOrganizationProfile": "organization:READ",
  "customfields.v1.OrganizationService/UpdateOrganizationProfile": "organization:MANAGE",
  "customers.v1.CustomersService/CreateCustomer": "customer:CREATE",
  "customers.v1.CustomersService/GetCustomer": "customer:READ",
  "customers.v1.CustomersService/UpdateCustomer": "customer:UPDATE",
  "customers.v1.CustomersService/ListCustomers": "customer:READ",
  "products.v1.ProductsService/CreateProduct": "product:CREATE",
  "products.v1.ProductsService/GetProduct": "product:READ",
  "products.v1.ProductsService/UpdateProduct": "product:UPDATE",
  "products.v1.ProductsService/ListProducts": "product:READ",
  "filestorage.v1.WebhookService/CreateWebhookEndpoint": "webhook_endpoint:MANAGE",
  "filestorage.v1.WebhookService/ListWebhookEndpoints": "webhook_endpoint:MANAGE",
  "filestorage.v1.WebhookService/GetWebhookEndpoint": "webhook_endpoint:MANAGE",
  "filestorage.v1.WebhookService/UpdateWebhookEndpoint": "webhook_endpoint:MANAGE",
  "filestorage.v1.WebhookService/DeleteWebhookEndpoint": "webhook_endpoint:MANAGE",
  "filestorage.v1.WebhookService/RotateWebhookSecret": "webhook_endpoint:MANAGE",
};

/** Services anyone may call: health checks carry no tenant (and answer from a cached state). */
export const publicServices = new Set(["grpc.health.v1.Health"]);

/**
 * Server reflection carries no tenant either, but each answer is kilobytes of descriptors: it
 * needs a valid token, and no permission, unless the deployment makes it public (rate-limited).
 */
export const reflectionServices = new Set(["grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"]);

/** Checked inside a use case rather than per method (complete or refresh someone else's upload). */
const useCasePermissions = [UPDATE_ANY_OBJECT_PERMISSION];

export const allPermissions = [...new Set([...Object.values(methodPermissions), "webhook_endpoint:MANAGE", ...useCasePermissions])].sort();
