/** Random calls of the webhook endpoint RPCs. */
import fc from "fast-check";
import { expect } from "vitest";
import { craftedToken, describeCall, expectClientOutcome, junk, mutated, often, pathId, text, unknownKeys, type RestCaller } from "./building-blocks.js";
import { HitRates } from "./hit-rates.js";

export const EVENT_TYPES = ["upload.initiated", "upload.completed", "scan.passed", "scan.failed", "hold.placed", "download_url.issued"];
export const webhookUrl = fc.oneof(
  fc.constantFrom("http://127.0.0.1:9/a", "https://hooks.example.com/b", "http://[::1]:8080/", "http://localhost/x?y=1#z", "https://例え.jp/パス", "http://2130706433/"),
  fc.constantFrom("ftp://hooks.example.com/", "not a url", "https://u:p@hooks.example.com/", "http://", "javascript:alert(1)", `https://${"a".repeat(3000)}.com/`, "http://ex\u0000ample.com/", "file:///etc/passwd", "HTTP://HOOKS.EXAMPLE.COM", " http://a.b/ ", "http://a b/"),
  fc.webUrl(),
  text,
);
const eventTypes = often(fc.array(fc.constantFrom(...EVENT_TYPES, "scan.exploded", "Scan.Passed", "", "scan", "*", "a.b.c"), { maxLength: 4 }), junk);
const validEndpoint = fc.record(
  { url: fc.oneof(fc.constantFrom("http://127.0.0.1:9/a", "https://hooks.example.com/b", "http://[::1]:8080/"), fc.webUrl()), eventTypes: fc.uniqueArray(fc.constantFrom(...EVENT_TYPES), { maxLength: 3 }) },
  { requiredKeys: ["url"] },
) as fc.Arbitrary<Record<string, unknown>>;
const createEndpointBody = fc.oneof(
  { weight: 5, arbitrary: validEndpoint },
  { weight: 2, arbitrary: mutated(validEndpoint, ["url", "eventTypes", "enabled", "secret", "id"]) },
  { weight: 3, arbitrary: fc.tuple(fc.record({ url: often(webhookUrl, junk), eventTypes }, { requiredKeys: [] }), unknownKeys).map(([body, extra]) => ({ ...body, ...(extra ?? {}) })) },
);
const validEndpointUpdate = fc.record(
  { url: fc.constantFrom("http://127.0.0.1:9/c", "https://hooks.example.com/d"), eventTypes: fc.uniqueArray(fc.constantFrom(...EVENT_TYPES), { minLength: 1, maxLength: 3 }), enabled: fc.boolean() },
  { requiredKeys: [] },
) as fc.Arbitrary<Record<string, unknown>>;
const randomEndpointUpdate = fc
  .tuple(
    fc.record({ url: often(fc.oneof(webhookUrl, fc.constant(null)), junk), eventTypes, enabled: often(fc.boolean(), junk), updateMask: often(fc.constantFrom("url", "enabled,eventTypes", "event_types", "secret", "id", ""), junk) }, { requiredKeys: [] }),
    unknownKeys,
  )
  .map(([body, extra]) => ({ ...body, ...(extra ?? {}) }));
const updateEndpointBody = fc.oneof({ weight: 6, arbitrary: validEndpointUpdate }, { weight: 1, arbitrary: randomEndpointUpdate });

/**
 * Random create, update, get, delete and list calls over the JSON API. Every answer is a 200 or a
 * client error with an expected code; gets and lists answer what the last 200 did. Answers the
 * model of the endpoints that exist after the calls (and those deleted).
 */
export async function fuzzEndpointCalls(rest: RestCaller, token: string, numRuns: number, hits = new HitRates()) {
  const model = new Map<string, any>();
  const gone: string[] = [];
  const ids = () => [...model.keys(), ...gone];
  const action = fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("create" as const), body: createEndpointBody }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("update" as const), id: pathId(ids, fc.uuid({ version: 7 })), body: updateEndpointBody }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("get" as const), id: pathId(ids, fc.uuid({ version: 7 })) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), id: pathId(ids, fc.uuid({ version: 7 })) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("list" as const),
        query: fc.record(
          {
            // Within the contract mostly (page sizes of 0 or more, above 500 read as 500; no token), so most lists answer.
            pageSize: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 1000 }) }, { weight: 1, arbitrary: fc.oneof(fc.integer({ min: -2, max: 600 }), fc.constantFrom("x", "")) }),
            pageToken: fc.oneof({ weight: 8, arbitrary: fc.constant("") }, { weight: 1, arbitrary: craftedToken("webhook-endpoints") }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) }),
          },
          { requiredKeys: [] },
        ),
      }),
    },
  );
  await fc.assert(
    fc.asyncProperty(action, async (a) => {
      if (a.kind === "create") {
        const res = await rest("POST", "/api/v1/webhook-endpoints", { token, body: a.body });
        // resource_exhausted: the tenant's endpoint quota (WEBHOOK_MAX_ENDPOINTS_PER_TENANT) is reached.
        expectClientOutcome(describeCall("POST", "/api/v1/webhook-endpoints", a.body), res, ["invalid_argument", "resource_exhausted"]);
        // A valid body past the tenant's endpoint cap reached the create too: it is refused only for the cap.
        hits.tally("create", res.status === 200 || res.body.code === "resource_exhausted");
        if (res.body.code === "resource_exhausted") expect(JSON.stringify(res.body)).toContain("WEBHOOK_ENDPOINT_LIMIT_REACHED");
        if (res.status === 200) model.set(res.body.webhookEndpoint.id, res.body.webhookEndpoint);
      } else if (a.kind === "list") {
        const qs = new URLSearchParams(Object.entries(a.query).map(([k, v]) => [k, String(v)])).toString();
        const res = await rest("GET", `/api/v1/webhook-endpoints?${qs}`, { token });
        expectClientOutcome(`GET /api/v1/webhook-endpoints?${qs}`, res, ["invalid_argument"]);
        hits.tally("list", res.status === 200);
        if (res.status === 200) for (const e of res.body.webhookEndpoints) expect(model.get(e.id)).toEqual(e);
      } else {
        const path = `/api/v1/webhook-endpoints/${a.id}`;
        const method = a.kind === "update" ? "PATCH" : a.kind === "get" ? "GET" : "DELETE";
        const body = a.kind === "update" ? a.body : undefined;
        const res = await rest(method, path, { token, body });
        expectClientOutcome(describeCall(method, path, body), res, ["invalid_argument", "not_found"]);
        hits.tally(a.kind, res.status === 200);
        if (res.status !== 200) return;
        if (a.kind === "update") model.set(a.id, res.body.webhookEndpoint);
        if (a.kind === "get") expect(res.body.webhookEndpoint).toEqual(model.get(a.id));
        if (a.kind === "delete") {
          model.delete(a.id);
          gone.push(a.id);
        }
      }
    }),
    { numRuns },
  );
  return { model, gone };
}
