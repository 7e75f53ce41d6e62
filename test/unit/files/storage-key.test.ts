import { describe, expect, it } from "vitest";
import { STORAGE_KEY_ROOT, storageKeyFor, tenantOfStorageKey } from "../../../src/domain/files/storage-key.js";

describe("the storage key layout", () => {
  it("builds tenants/{tenant}/{owner type}/{owner id}/{object}, the tenant URL-encoded", () => {
    expect(storageKeyFor("acme/eu", "Customer", "c-1", "0b7c")).toBe("tenants/acme%2Feu/Customer/c-1/0b7c");
    expect(storageKeyFor("acme", "Customer", "c-1", "0b7c").startsWith(STORAGE_KEY_ROOT)).toBe(true);
  });

  it("reads back the tenant of every key it builds", () => {
    for (const tenant of ["acme", "acme/eu", "a b%c", "ü-tenant", "%"]) {
      expect(tenantOfStorageKey(storageKeyFor(tenant, "Customer", "c-1", "0b7c"))).toBe(tenant);
    }
  });

  it("names no tenant for a key outside the layout, a stray percent sign included", () => {
    for (const key of ["other/acme/Customer/c-1/x", "tenants/", "tenants//Customer/c-1/x", "tenants/acme", "tenants/%zz/Customer/c-1/x"]) {
      expect(tenantOfStorageKey(key), key).toBeUndefined();
    }
  });
});
