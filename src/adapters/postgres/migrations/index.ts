import { InitialSchema } from "./0001-initial-schema.js";
import { Webhooks } from "./0002-webhooks.js";
import { VerificationFailure } from "./0003-verification-failure.js";
import { AuditTrail } from "./0004-audit-trail.js";
import { WebhookSecrets } from "./0005-webhook-secrets.js";
import { CustomFieldIndexes } from "./0006-custom-field-indexes.js";
import { StorageDeleteFailures } from "./0007-storage-delete-failures.js";
import { OrganizationProfiles } from "./0008-organization-profiles.js";
import { Products } from "./0010-products.js";
import { TenantQuotas } from "./0011-tenant-quotas.js";
import { AuditHashChain } from "./0012-audit-hash-chain.js";
import { AuditChainLinks } from "./0013-audit-chain-links.js";
import { MalwareDatabases } from "./0014-malware-databases.js";
import { WebhookDispatchWakeups } from "./0015-webhook-dispatch-wakeups.js";
import { ContentSha256 } from "./0016-content-sha256.js";
import { MultipartUploadAborts } from "./0017-multipart-upload-aborts.js";
import { AuditCommitFlushAfter } from "./0018-audit-commit-flush-after.js";

/** Listed explicitly: no file discovery at run time, the same list in dev, tests and production. */
export const migrations = [
  { name: "0001-initial-schema", class: InitialSchema },
  { name: "0002-webhooks", class: Webhooks },
  { name: "0003-verification-failure", class: VerificationFailure },
  { name: "0004-audit-trail", class: AuditTrail },
  { name: "0005-webhook-secrets", class: WebhookSecrets },
  { name: "0006-custom-field-indexes", class: CustomFieldIndexes },
  { name: "0007-storage-delete-failures", class: StorageDeleteFailures },
  { name: "0008-organization-profiles", class: OrganizationProfiles },
  { name: "0010-products", class: Products },
  { name: "0011-tenant-quotas", class: TenantQuotas },
  { name: "0012-audit-hash-chain", class: AuditHashChain },
  { name: "0013-audit-chain-links", class: AuditChainLinks },
  { name: "0014-malware-databases", class: MalwareDatabases },
  { name: "0015-webhook-dispatch-wakeups", class: WebhookDispatchWakeups },
  { name: "0016-content-sha256", class: ContentSha256 },
  { name: "0017-multipart-upload-aborts", class: MultipartUploadAborts },
  { name: "0018-audit-commit-flush-after", class: AuditCommitFlushAfter },
];
