import { describe, expect, it } from "vitest";
import { definitionLimitError } from "../../../src/domain/customfields/definition-quota.js";
import { pendingUploadLimitReached } from "../../../src/domain/files/pending-upload-quota.js";
import { quotaOfReason } from "../../../src/domain/quotas.js";
import { endpointLimitReached } from "../../../src/domain/webhooks/endpoint-quota.js";
import { reasonCodes } from "../../../src/rpc/error-codes.js";
import { Code } from "@connectrpc/connect";

describe("per-tenant quotas", () => {
  it("refuse with a reason of their own, RESOURCE_EXHAUSTED, and the quota and its limit in the metadata", () => {
    const refusals = [pendingUploadLimitReached(1000), definitionLimitError(200, 200, "Customer")!, endpointLimitReached(10)];
    expect(refusals.map((e) => [e.reason, reasonCodes[e.reason], e.metadata.quota, e.metadata.limit])).toEqual([
      ["PENDING_UPLOAD_LIMIT_REACHED", Code.ResourceExhausted, "pending_uploads", "1000"],
      ["FIELD_DEFINITION_LIMIT_REACHED", Code.ResourceExhausted, "field_definitions", "200"],
      ["WEBHOOK_ENDPOINT_LIMIT_REACHED", Code.ResourceExhausted, "webhook_endpoints", "10"],
    ]);
    expect(refusals.map((e) => quotaOfReason(e.reason))).toEqual(["pending_uploads", "field_definitions", "webhook_endpoints"]);
  });

  it("name no quota for any other reason", () => {
    expect(quotaOfReason("INDEXED_FIELD_LIMIT_REACHED")).toBeUndefined();
    expect(quotaOfReason("RESOURCE_EXHAUSTED")).toBeUndefined();
  });

  it("let field definitions up to the limit and refuse the one past it", () => {
    expect(definitionLimitError(199, 200, "Customer")).toBeUndefined();
    expect(definitionLimitError(200, 200, "Customer")?.metadata.entityType).toBe("Customer");
  });
});
