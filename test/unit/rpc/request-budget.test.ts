/**
 * No request by any caller holds the API's event loop for more than 100 ms. Every RPC of every
 * service in gen/ (found there, so a new one is covered without an edit) receives, in memory, a
 * plausible request, the same request with each field in turn at a worst case for its kind (long
 * numbers, long strings, deep JSON, big repeated fields and maps), and random requests; the
 * event-loop delay of each call is measured by perf_hooks.monitorEventLoopDelay. The caller holds
 * every permission, and the test checks that the calls reach the handlers, so that a refusal at
 * the door cannot make it pass.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fromJson, toBinary, type DescMethod, type DescService, type JsonObject } from "@bufbuild/protobuf";
import { ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { routesOf, type HttpRoute } from "../../../src/rpc/rest/http-routes.js";
import { jsonApiServices } from "../../../src/rpc/openapi/generate-openapi.js";
import { deepJsonText, DRAFT_KEY, FIELD_KEYS, LONG_NUMBER, NEAR_BODY_LIMIT, randomRequest, worstCaseRequests, type Seeded } from "./request-budget-inputs.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

const BUDGET_MS = 100;

/** Every service the generated code describes. */
async function generatedServices(): Promise<DescService[]> {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith("_pb.ts") ? [join(dir, e.name)] : []));
  const services: DescService[] = [];
  for (const file of walk(join(import.meta.dirname, "../../../packages/client/gen"))) {
    const module = (await import(file)) as Record<string, unknown>;
    for (const value of Object.values(module)) if ((value as DescService | undefined)?.kind === "service") services.push(value as DescService);
  }
  return services;
}

/**
 * The longest the event loop was held during `run`, by monitorEventLoopDelay (a 10 ms timer that
 * records how late it fires), and the CPU time the event loop's thread spent in its longest turn:
 * a chain of setImmediate callbacks reads the thread's CPU once per turn of the loop.
 */
const histogram = monitorEventLoopDelay({ resolution: 10 });
async function nextSample(): Promise<void> {
  const count = histogram.count;
  while (histogram.count === count) await sleep(1);
}
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}
async function heldMs(run: () => Promise<unknown>): Promise<{ held: number; cpu: number }> {
  // reset() forgets when the timer last fired: the next sample only restarts the clock.
  histogram.reset();
  await nextSample();
  let last = threadCpuMs();
  let longestTurn = 0;
  let sampling = true;
  const turn = () => {
    const now = threadCpuMs();
    longestTurn = Math.max(longestTurn, now - last);
    last = now;
    if (sampling) setImmediate(turn);
  };
  setImmediate(turn);
  await run();
  await nextSample();
  sampling = false;
  await new Promise((resolve) => setImmediate(resolve));
  return { held: histogram.max / 1e6, cpu: longestTurn };
}

let api: InMemoryApi;
let token: string;
let services: DescService[];
let seeded: Seeded;
/** The calls that passed auth and validation, by method. */
const reached = new Map<string, number>();
const countReached: Interceptor = (next) => (req) => {
  reached.set(req.method.name, (reached.get(req.method.name) ?? 0) + 1);
  return next(req);
};
const totalReached = () => [...reached.values()].reduce((a, b) => a + b, 0);

/**
 * One call over the Connect transport: unary, or the first message of a stream. The request is
 * built from its JSON first, outside what is measured: that is the caller's work, not the API's.
 */
function prepared(method: DescMethod, json: JsonObject): () => Promise<string> {
  const request = fromJson(method.input, json);
  if (method.methodKind === "unary") return unaryBytes(method, toBinary(method.input, request));
  const client = createClient(method.parent, api.transport(token)) as unknown as Record<string, (...args: unknown[]) => unknown>;
  const invoke = client[method.localName]!.bind(client);
  return () => outcome(async () => {
    if (method.methodKind === "unary") return void (await invoke(request));
    const input = method.methodKind === "bidi_streaming" || method.methodKind === "client_streaming" ? (async function* () { yield request; })() : request;
    if (method.methodKind === "client_streaming") return void (await invoke(input));
    // The first message only: health's Watch never ends.
    for await (const _ of invoke(input) as AsyncIterable<unknown>) break;
  });
}

/**
 * A unary call whose body, encoded beforehand, goes to the router's Connect handler as a remote
 * client's would: what is measured is the API's work alone (a client in this process would add
 * its own encoding of the request to the measured time).
 */
function unaryBytes(method: DescMethod, body: Uint8Array): () => Promise<string> {
  const http = api.httpClient();
  return async () => {
    const response = await http({
      url: `https://in-memory/${method.parent.typeName}/${method.name}`,
      method: "POST",
      header: new Headers({ "content-type": "application/proto", "connect-protocol-version": "1", authorization: `Bearer ${token}` }),
      body: (async function* () {
        yield body;
      })(),
    });
    const chunks: Uint8Array[] = [];
    for await (const chunk of response.body) chunks.push(chunk);
    if (response.status === 200) return "ok";
    const error = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { message?: string };
    return String(error.message).slice(0, 120);
  };
}

async function outcome(run: () => Promise<void>): Promise<string> {
  try {
    await run();
    return "ok";
  } catch (error) {
    if (error instanceof ConnectError) return error.rawMessage.slice(0, 120);
    throw error;
  }
}

/** The REST form of a call with a body of raw JSON text, for the deep JSON the client could not encode. */
function restCall(route: HttpRoute, json: JsonObject, rawField: string, rawText: string) {
  const jsonName = (variable: string) => route.method.input.fields.find((f) => f.name === variable)!.jsonName;
  const variables = route.segments.flatMap((s) => ("variable" in s ? [jsonName(s.variable)] : []));
  const path = route.segments.map((s) => ("variable" in s ? encodeURIComponent(String(json[jsonName(s.variable)])) : s.literal)).join("/");
  const body = Object.fromEntries(Object.entries(json).filter(([k]) => !variables.includes(k)));
  body[rawField] = "\u0000RAW\u0000";
  const rawBody = JSON.stringify(body).replace('"\\u0000RAW\\u0000"', rawText);
  return () => api.rest(route.httpMethod, `/${path}${route.verb ? `:${route.verb}` : ""}`, { token, rawBody });
}

/**
 * A hold counts against the request only as far as its thread computed in that turn: a loop that
 * is late while the thread computed less was descheduled by a busy machine (a CI run saw 102 ms
 * held with 20 ms of CPU in the whole call), which no request can cause. A request that computes
 * for 100 ms in one turn of the loop has both figures over the budget.
 */
function expectWithinBudget({ held, cpu }: { held: number; cpu: number }, what: string) {
  expect(Math.min(held, cpu), `${what} held the event loop for ${held.toFixed(0)} ms (${cpu.toFixed(0)} ms of CPU in its longest turn)`).toBeLessThan(BUDGET_MS);
}

async function seed(): Promise<Seeded> {
  const ids: Partial<Seeded> = {};
  const unary = async (service: string, name: string, json: JsonObject) => {
    const method = services.find((s) => s.typeName === service)!.methods.find((m) => m.name === name)!;
    const client = createClient(method.parent, api.transport(token)) as unknown as Record<string, (r: unknown) => Promise<any>>;
    return client[method.localName]!(fromJson(method.input, json));
  };
  const types = { number: "NUMBER", string: "STRING", date: "DATE", select: "SELECT", json: "JSON", boolean: "BOOLEAN", computed: "COMPUTED" } as const;
  for (const entityType of ["Customer", "Product"]) {
    for (const [kind, fieldKey] of Object.entries(FIELD_KEYS)) {
      const extra: JsonObject =
        kind === "select" ? { uiConfig: { options: [{ label: "Gold", value: "gold" }] } } : kind === "computed" ? { computedFormula: `${FIELD_KEYS.number} * 2` } : kind === "number" ? { validation: { min: 0, max: 1000 } } : {};
      const res = await unary("customfields.v1.CustomFieldsService", "CreateFieldDefinition", { entityType, fieldKey, fieldLabel: fieldKey, fieldType: types[kind as keyof typeof types], ...extra });
      ids.definitionId ??= res.fieldDefinition.id;
    }
  }
  ids.customerId = (await unary("customers.v1.CustomersService", "CreateCustomer", { name: "Ada", email: "ada@example.com", customFields: { [FIELD_KEYS.number]: 5 } })).customer.id;
  ids.productId = (await unary("products.v1.ProductsService", "CreateProduct", { sku: "SKU-1", name: "Lamp", priceCents: "100" })).product.id;
  ids.endpointId = (await unary("filestorage.v1.WebhookService", "CreateWebhookEndpoint", { url: "https://hooks.example.com/budget" })).webhookEndpoint.id;
  ids.objectId = (await unary("filestorage.v1.FileStorageService", "InitiateUpload", { objectClass: "REPORT", ownerEntityType: "Customer", ownerEntityId: ids.customerId!, originalFilename: "r.pdf", contentType: "application/pdf", fileSize: "1024" })).storedObject.id;
  return ids as Seeded;
}

beforeAll(async () => {
  api = inMemoryApi({ innermost: [countReached] });
  token = await api.token("budget-tenant");
  services = await generatedServices();
  seeded = await seed();
  // Warm up: the first calls compile code paths and caches that later calls reuse.
  for (const service of services) for (const method of service.methods) await prepared(method, {})().catch(() => undefined);
  histogram.enable();
}, 60_000);

describe("the per-request budget: no call holds the event loop for 100 ms", () => {
  it("the measure fails a call that computes for 150 ms in one turn, and not one whose thread was stopped for as long", async () => {
    const busy = async () => {
      const until = threadCpuMs() + 150;
      while (threadCpuMs() < until);
    };
    // Blocked without computing, as a descheduled process is.
    const stopped = async () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
    expect(() => expectWithinBudget({ held: 150, cpu: 150 }, "planted")).toThrow(/held the event loop for 150 ms/);
    const computed = await heldMs(busy);
    expect(() => expectWithinBudget(computed, "a busy loop")).toThrow(/a busy loop held the event loop/);
    const blocked = await heldMs(stopped);
    expect(blocked.held).toBeGreaterThanOrEqual(BUDGET_MS);
    expectWithinBudget(blocked, "a stopped thread");
  });

  it("a NUMBER preview with 80,000 digits and a bad tail (the issue's measurement)", { timeout: 180_000 }, async () => {
    const preview = services.flatMap((s) => s.methods).find((m) => m.name === "PreviewFieldDefinition")!;
    const json = { entityType: "Customer", draft: { entityType: "Customer", fieldKey: DRAFT_KEY, fieldLabel: "N", fieldType: "NUMBER" }, customFields: { [DRAFT_KEY]: LONG_NUMBER } };
    // Before the contract bounded values, this reached the number parser and held the loop for seconds.
    expectWithinBudget(await heldMs(prepared(preview, json)), "PreviewFieldDefinition over Connect");
    const [route] = routesOf(jsonApiServices).filter((r) => r.method === preview);
    expectWithinBudget(await heldMs(restCall(route!, json, "customFields", JSON.stringify({ [DRAFT_KEY]: LONG_NUMBER }))), "PreviewFieldDefinition over REST");
  });

  it("every RPC, each field at its worst case", { timeout: 600_000 }, async () => {
    const before = totalReached();
    const unreachedPlausible: string[] = [];
    let calls = 0;
    for (const service of services) {
      for (const method of service.methods) {
        for (const { label, request } of worstCaseRequests(method.input, seeded)) {
          const what = `${service.typeName}/${method.name} with ${label}`;
          let result = "";
          const call = prepared(method, request);
          const reachedBefore = reached.get(method.name) ?? 0;
          expectWithinBudget(await heldMs(async () => (result = await call())), `${what} (${result})`);
          // Not vacuous: each method's plausible request gets past auth and validation to its handler,
          // so its worst cases are judged against a call that works. (Most worst cases exceed the
          // contract's bounds on purpose: their refusal is what must stay cheap.)
          if (label === "plausible" && (reached.get(method.name) ?? 0) === reachedBefore) unreachedPlausible.push(`${what}: ${result}`);
          calls++;
        }
      }
    }
    expect(unreachedPlausible, "plausible requests that did not reach their handler").toEqual([]);
    const methods = services.flatMap((s) => s.methods.map((m) => m.name));
    expect(methods.filter((m) => !reached.has(m)), "methods never reached").toEqual([]);
    expect(totalReached() - before, `of ${calls} calls`).toBeGreaterThanOrEqual(methods.length);
  });

  it("every REST route with a JSON object field, that field nested as deep as the body allows", { timeout: 120_000 }, async () => {
    const before = totalReached();
    let calls = 0;
    for (const route of routesOf(jsonApiServices).filter((r) => r.body === "*")) {
      const structs = route.method.input.fields.filter((f) => f.fieldKind === "message" && f.message.typeName === "google.protobuf.Struct");
      for (const field of structs) {
        // 30 levels decode (protobuf-es stops at 100) and reach the handler; the others are refused by the decoder.
        for (const deep of [...deepJsonText(30), ...deepJsonText(1_000), ...deepJsonText(NEAR_BODY_LIMIT / 8)]) {
          const value = `{"${FIELD_KEYS.json}":${deep}}`;
          const request = worstCaseRequests(route.method.input, seeded)[0]!.request;
          expectWithinBudget(await heldMs(restCall(route, request, field.jsonName, value)), `${route.httpMethod} ${route.template} with ${field.jsonName} nested ${deep.length / 5} deep`);
          calls++;
        }
      }
    }
    expect(calls).toBeGreaterThan(0);
    expect(totalReached() - before, `of ${calls} calls`).toBeGreaterThan(0);
  });

  it("every RPC, random requests", { timeout: 300_000 }, async () => {
    const methods = services.flatMap((s) => s.methods);
    const before = totalReached();
    let calls = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methods).chain((method) => randomRequest(method.input, seeded).map((request) => ({ method, request }))), async ({ method, request }) => {
        calls++;
        expectWithinBudget(await heldMs(prepared(method, request)), `${method.parent.typeName}/${method.name} with ${JSON.stringify(request).slice(0, 300)}`);
      }),
      { numRuns: 300 },
    );
    expect(totalReached() - before, `of ${calls} calls`).toBeGreaterThan(calls / 4);
  });
});
