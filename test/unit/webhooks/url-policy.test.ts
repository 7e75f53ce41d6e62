import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/config.js";
import { REQUIRED_ENV, SAFE_MODE_ENV } from "../../support/config-env.js";
import { AppError } from "../../../src/domain/errors.js";
import { parseWebhookUrl, refusedAddress } from "../../../src/domain/webhooks/url-policy.js";
import { createUrlGuard } from "../../../src/adapters/webhooks/url-guard.js";

async function refusal(work: Promise<unknown>): Promise<AppError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("parseWebhookUrl", () => {
  it("accepts http and https with a host", () => {
    expect(parseWebhookUrl("https://hooks.example.com/in?x=1")).toMatchObject({ ok: true, value: { hostname: "hooks.example.com", https: true } });
    expect(parseWebhookUrl("http://[::1]:8080/")).toMatchObject({ ok: true, value: { hostname: "::1", https: false } });
  });

  it.each([
    ["ftp://example.com/", "must use http or https"],
    ["file:///etc/passwd", "must use http or https"],
    ["https://user:pw@example.com/", "must not carry credentials"],
    ["https://user@example.com/", "must not carry credentials"],
    ["not a url", "is not a valid URL"],
  ])("refuses %s", (url, reason) => {
    const verdict = parseWebhookUrl(url);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toContain(reason);
  });

  it("sees through IPv4 shorthand: the URL parser normalizes 0x7f.1 to 127.0.0.1", () => {
    expect(parseWebhookUrl("http://0x7f.1/")).toMatchObject({ ok: true, value: { hostname: "127.0.0.1" } });
  });
});

describe("refusedAddress", () => {
  it("allows a host whose every address is public", () => {
    expect(refusedAddress("example.com", ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"], false)).toBeUndefined();
  });

  it("refuses a host with one private address among public ones", () => {
    expect(refusedAddress("mixed.example", ["93.184.215.14", "10.0.0.7"], false)).toBe("host mixed.example resolves to 10.0.0.7, a private address");
  });

  it("refuses loopback, link-local and mapped forms", () => {
    expect(refusedAddress("h", ["127.0.0.1"], false)).toContain("loopback");
    expect(refusedAddress("h", ["169.254.169.254"], false)).toContain("link-local");
    expect(refusedAddress("h", ["::ffff:127.0.0.1"], false)).toContain("loopback");
  });

  it("development mode allows private addresses", () => {
    expect(refusedAddress("localhost", ["127.0.0.1"], true)).toBeUndefined();
  });

  it("a host that resolves to nothing is refused either way", () => {
    expect(refusedAddress("nowhere.invalid", [], true)).toBe("host nowhere.invalid does not resolve");
  });
});

describe("the URL guard at create and update", () => {
  const resolveTo = (addresses: string[]) => async () => addresses;

  it("refuses a URL that resolves to a private address when the setting disallows it", async () => {
    const guard = createUrlGuard({ allowPrivate: false, resolve: resolveTo(["192.168.0.10"]) });
    const error = await refusal(guard("https://intranet.example/hook"));
    expect(error.reason).toBe("WEBHOOK_URL_NOT_ALLOWED");
    expect(error.violations).toEqual([{ field: "url", description: "host intranet.example resolves to 192.168.0.10, a private address" }]);
  });

  it("refuses a loopback IP literal without asking DNS", async () => {
    const guard = createUrlGuard({ allowPrivate: false });
    expect((await refusal(guard("http://127.0.0.1:9999/"))).reason).toBe("WEBHOOK_URL_NOT_ALLOWED");
    expect((await refusal(guard("http://[::1]/"))).reason).toBe("WEBHOOK_URL_NOT_ALLOWED");
  });

  it.each(["http://[::ffff:0:a9fe:a9fe]/", "http://[::ffff:0:127.0.0.1]/", "http://[64:ff9b::169.254.169.254]/", "http://[2002:a9fe:a9fe::]/"])(
    "refuses an IPv6 literal carrying a non-public IPv4 address: %s",
    async (url) => {
      const guard = createUrlGuard({ allowPrivate: false });
      expect((await refusal(guard(url))).reason).toBe("WEBHOOK_URL_NOT_ALLOWED");
    },
  );

  it("accepts a public host", async () => {
    const guard = createUrlGuard({ allowPrivate: false, resolve: resolveTo(["93.184.215.14"]) });
    await expect(guard("https://hooks.example.com/")).resolves.toBeUndefined();
  });

  it("accepts a private URL in development mode without resolving it", async () => {
    const guard = createUrlGuard({ allowPrivate: true, resolve: () => Promise.reject(new Error("must not resolve")) });
    await expect(guard("http://127.0.0.1:3000/hook")).resolves.toBeUndefined();
  });

  it("still refuses a URL with credentials in development mode", async () => {
    const guard = createUrlGuard({ allowPrivate: true });
    expect((await refusal(guard("http://a:b@127.0.0.1/"))).reason).toBe("WEBHOOK_URL_NOT_ALLOWED");
  });

  it("a resolver failure is a refusal that says to retry", async () => {
    const guard = createUrlGuard({ allowPrivate: false, resolve: () => Promise.reject(Object.assign(new Error("timeout"), { code: "EAI_AGAIN" })) });
    expect((await refusal(guard("https://flaky.example/"))).message).toContain("retry later");
  });
});

describe("WEBHOOK_ALLOW_PRIVATE_URLS", () => {
  const base = { ...REQUIRED_ENV, DEVELOPMENT_MODE: "true" };

  it("defaults to allowed in development mode", () => {
    expect(parseConfig(base).webhooks.allowPrivateUrls).toBe(true);
  });

  it("defaults to refused outside development mode, whatever NODE_ENV says", () => {
    const safe = { ...SAFE_MODE_ENV, DEVELOPMENT_MODE: undefined, AUTH_HS256_SECRET: "a-real-secret-of-at-least-32-bytes", WEBHOOK_SECRET_KEY: Buffer.alloc(32, 1).toString("base64") };
    for (const NODE_ENV of [undefined, "test", "development"]) expect(parseConfig({ ...safe, NODE_ENV }).webhooks.allowPrivateUrls).toBe(false);
  });

  it("can be set either way", () => {
    expect(parseConfig({ ...base, WEBHOOK_ALLOW_PRIVATE_URLS: "false" }).webhooks.allowPrivateUrls).toBe(false);
  });

  it("has the documented delivery defaults", () => {
    expect(parseConfig(base).webhooks).toEqual({
      allowPrivateUrls: true,
      dispatchCatchUpSeconds: 300,
      retryInitialSeconds: 30,
      retryTotalHours: 24,
      requestTimeoutSeconds: 10,
      maxEndpointsPerTenant: 10,
      maxInFlightPerEndpoint: 10,
      maxInFlightPerTenant: 5,
      taskQueue: `${parseConfig(base).temporal.taskQueue}-webhooks`,
      maxConcurrentActivities: 20,
      maxConcurrentWorkflowTasks: 4,
      workflowTaskPollers: { autoscaling: false, minimum: 2, initial: 2, maximum: 4 },
      activityTaskPollers: { autoscaling: true, minimum: 1, initial: 10, maximum: 20 },
      secretOverlapSeconds: 86_400,
      secretKeys: { current: expect.any(Buffer), previous: [], derived: true },
    });
  });
});
