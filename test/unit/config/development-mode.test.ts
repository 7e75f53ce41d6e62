/**
 * The safe mode is the default: development shortcuts only with DEVELOPMENT_MODE=true, whatever
 * NODE_ENV says; and what authentication accepts is checked when the configuration is read.
 */
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_JWT_SECRET } from "../../../src/config/auth.js";
import { ConfigError } from "../../../src/config/config-error.js";
import { parseConfig } from "../../../src/config/config.js";
import type { Env } from "../../../src/config/env.js";
import { REQUIRED_ENV, SAFE_MODE_ENV } from "../../support/config-env.js";

const identity = { AUTH_ISSUER: SAFE_MODE_ENV.AUTH_ISSUER, AUTH_AUDIENCE: SAFE_MODE_ENV.AUTH_AUDIENCE };
const base: Env = { ...REQUIRED_ENV, WEBHOOK_SECRET_KEY: SAFE_MODE_ENV.WEBHOOK_SECRET_KEY, AUDIT_SIGNING_KEY: SAFE_MODE_ENV.AUDIT_SIGNING_KEY, ...identity };
const SECRET = "a-real-secret-of-at-least-32-bytes!";
const safe: Env = { ...base, AUTH_HS256_SECRET: SECRET };

function refusal(env: Env): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("the configuration was accepted");
}

describe("without DEVELOPMENT_MODE, whatever NODE_ENV says", () => {
  for (const nodeEnv of [undefined, "prod", "staging", "development", "test"]) {
    describe(`NODE_ENV=${nodeEnv ?? "(unset)"}`, () => {
      it("has no development secret and refuses to start without one", () => {
        expect(refusal({ ...base, NODE_ENV: nodeEnv }).variable).toBe("AUTH_JWKS_URL");
      });

      it("refuses the development secret given explicitly", () => {
        expect(refusal({ ...base, NODE_ENV: nodeEnv, AUTH_HS256_SECRET: DEVELOPMENT_JWT_SECRET }).message).toBe(
          "AUTH_HS256_SECRET: the development secret is refused without DEVELOPMENT_MODE=true",
        );
      });

      it("is not in development mode (no demo pages), refuses private webhook URLs and FAULT_INJECTION", () => {
        const config = parseConfig({ ...safe, NODE_ENV: nodeEnv });
        expect(config.developmentMode).toBe(false);
        expect(config.webhooks.allowPrivateUrls).toBe(false);
        expect(refusal({ ...safe, NODE_ENV: nodeEnv, FAULT_INJECTION: "workflow-tasks" }).variable).toBe("FAULT_INJECTION");
      });
    });
  }

  it("allows private webhook URLs only when asked for explicitly", () => {
    expect(parseConfig({ ...safe, WEBHOOK_ALLOW_PRIVATE_URLS: "true" }).webhooks.allowPrivateUrls).toBe(true);
  });
});

describe("DEVELOPMENT_MODE=true", () => {
  const dev: Env = { ...base, AUTH_ISSUER: undefined, AUTH_AUDIENCE: undefined, DEVELOPMENT_MODE: "true" };

  it("turns on the development secret with its issuer and audience, private webhook URLs and FAULT_INJECTION", () => {
    const config = parseConfig({ ...dev, NODE_ENV: "production", FAULT_INJECTION: "workflow-tasks" });
    expect(config.developmentMode).toBe(true);
    expect(config.auth).toMatchObject({ hs256Secret: DEVELOPMENT_JWT_SECRET, issuer: "files-and-fields-development", audience: "files-and-fields-development" });
    expect(config.webhooks.allowPrivateUrls).toBe(true);
    expect(config.worker.faultInjection).toBe(true);
  });

  it("refuses anything but true or false", () => {
    expect(refusal({ ...safe, DEVELOPMENT_MODE: "yes" }).variable).toBe("DEVELOPMENT_MODE");
  });

  it.each(["0.0.0.0", "::", "[::]", "192.168.1.20", "203.0.113.7", "2001:db8::7", "api.example.com"])(
    "refuses to listen on a non-loopback HOST=%s, saying how to proceed",
    (host) => {
      const error = refusal({ ...dev, HOST: host });
      expect(error.variable).toBe("HOST");
      expect(error.message).toContain("DEVELOPMENT_MODE_ALLOW_NON_LOOPBACK=true");
    },
  );

  it.each([undefined, "127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])("listens on loopback HOST=%s", (host) => {
    expect(parseConfig({ ...dev, HOST: host }).host).toBe(host ?? "127.0.0.1");
  });

  it("listens on a non-loopback HOST when DEVELOPMENT_MODE_ALLOW_NON_LOOPBACK=true says it is meant", () => {
    expect(parseConfig({ ...dev, HOST: "0.0.0.0", DEVELOPMENT_MODE_ALLOW_NON_LOOPBACK: "true" }).host).toBe("0.0.0.0");
  });

  it("leaves HOST alone outside development mode", () => {
    expect(parseConfig({ ...safe, HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
  });
});

describe("authentication settings", () => {
  it("refuse an HS256 secret shorter than 32 bytes, naming the variable", () => {
    expect(refusal({ ...base, AUTH_HS256_SECRET: "x" }).message).toBe("AUTH_HS256_SECRET: must be at least 32 bytes");
    expect(refusal({ ...base, AUTH_HS256_SECRET: "a".repeat(31) }).variable).toBe("AUTH_HS256_SECRET");
    expect(parseConfig({ ...base, AUTH_HS256_SECRET: "a".repeat(32) }).auth.hs256Secret).toBe("a".repeat(32));
  });

  it("require an issuer and an audience outside development mode, with a small clock tolerance", () => {
    expect(parseConfig(safe).auth).toEqual({ jwksUrl: undefined, hs256Secret: SECRET, issuer: "https://id.example", audience: "files", clockToleranceSeconds: 30 });
    expect(refusal({ ...safe, AUTH_ISSUER: undefined }).message).toBe("AUTH_ISSUER: is required without DEVELOPMENT_MODE=true (every token must name it)");
    expect(refusal({ ...safe, AUTH_AUDIENCE: "" }).variable).toBe("AUTH_AUDIENCE");
    expect(parseConfig({ ...safe, AUTH_CLOCK_TOLERANCE_SECONDS: "5" }).auth.clockToleranceSeconds).toBe(5);
    // Development mode with a real secret: checked only when configured.
    expect(parseConfig({ ...safe, ...{ AUTH_ISSUER: undefined, AUTH_AUDIENCE: undefined }, DEVELOPMENT_MODE: "true" }).auth).toMatchObject({ issuer: undefined, audience: undefined });
  });

  it("take the JWKS over https only", () => {
    expect(parseConfig({ ...base, AUTH_JWKS_URL: "https://id.example/jwks.json" }).auth.jwksUrl).toBe("https://id.example/jwks.json");
    for (const jwks of ["http://id.example/jwks.json", "http://127.0.0.1:9000/jwks.json", "http://localhost/jwks.json"]) {
      expect(refusal({ ...base, AUTH_JWKS_URL: jwks }).message).toBe("AUTH_JWKS_URL: must use https: (http: only for a loopback host with DEVELOPMENT_MODE=true)");
    }
  });

  it("allow a plain-http JWKS on a loopback host in development mode only", () => {
    const dev = { ...base, DEVELOPMENT_MODE: "true" };
    for (const jwks of ["http://127.0.0.1:9000/jwks.json", "http://localhost/jwks.json", "http://[::1]:8000/jwks.json"]) {
      expect(parseConfig({ ...dev, AUTH_JWKS_URL: jwks }).auth.jwksUrl).toBe(jwks);
    }
    expect(refusal({ ...dev, AUTH_JWKS_URL: "http://10.0.0.5/jwks.json" }).variable).toBe("AUTH_JWKS_URL");
  });
});

describe("the metrics listener", () => {
  it("listens on loopback by default, apart from the API port", () => {
    expect(parseConfig(safe).metrics).toEqual({ host: "127.0.0.1", port: 9464 });
    expect(parseConfig({ ...safe, METRICS_HOST: "0.0.0.0", METRICS_PORT: "0" }).metrics).toEqual({ host: "0.0.0.0", port: 0 });
  });
});
