import { ScalarType, type DescEnum, type DescEnumValue, type DescField, type DescMessage, type DescService, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { CustomersService } from "@files-and-fields/client/gen/customers/v1/customers_service_pb.js";
import { ProductsService } from "@files-and-fields/client/gen/products/v1/products_service_pb.js";
import { CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { OrganizationService } from "@files-and-fields/client/gen/customfields/v1/organization_service_pb.js";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { WebhookService } from "@files-and-fields/client/gen/filestorage/v1/webhooks_service_pb.js";
import { AuditService } from "@files-and-fields/client/gen/filestorage/v1/audit_service_pb.js";
import { BadRequestSchema, ErrorInfoSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";
import { methodPermissions } from "../permissions.js";
import { routesOf, type HttpRoute } from "../rest/http-routes.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../domain/pagination.js";
import { isRequiredField, listBounds, mapBounds, scalarBounds } from "./field-bounds.js";

/** The services of the JSON API: the REST handler serves them and the document describes them. */
export const jsonApiServices: DescService[] = [FileStorageService, AuditService, WebhookService, CustomFieldsService, OrganizationService, CustomersService, ProductsService];

/**
 * The OpenAPI 3.1 document of the JSON API, derived from the descriptors and their
 * `google.api.http` annotations exactly as the REST transcoder (src/rpc/rest/) reads them, so the
 * document cannot describe a route the server does not serve. Schemas follow the proto3 JSON
 * mapping. Keys are sorted so that the committed file only changes when the contract does.
 *
 * The embedded descriptors of gen/ carry no source comments (protoc-gen-es drops them), so the
 * document has no per-field descriptions; the contract's comments stay the reference.
 */
export function generateOpenApi(services: DescService[]): JsonObject {
  const components = new ComponentSchemas(services);
  const paths = pathItems(routesOf(services), components);
  // Every message and enum of the services' files, also those only seen in paths and queries.
  for (const file of new Set(services.map((s) => s.file))) {
    file.enums.forEach((e) => components.enumRef(e, "output"));
    file.messages.forEach((m) => components.addMessage(m));
  }
  components.addMessage(ErrorInfoSchema);
  components.addMessage(BadRequestSchema);
  const document: JsonObject = {
    openapi: "3.1.0",
    info: {
      title: "files-and-fields JSON API",
      version: "v1",
      description:
        "Generated from the Protobuf contract (proto/) by `npm run openapi`; never edited by hand. " +
        "The same RPCs are served as gRPC, gRPC-Web and Connect on the same port. Every error answers " +
        "the Connect JSON error body; its `details` carry a google.rpc.ErrorInfo with a stable `reason`.",
    },
    tags: services.map((s) => ({ name: s.name, description: `RPC service ${s.typeName}` })),
    // Relative: the paths are served from the origin the document itself is fetched from.
    servers: [{ url: "/", description: "the origin that serves this document" }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      responses: errorResponses(),
      schemas: { ...components.schemas, ...connectErrorSchemas() },
    },
  };
  return sortKeys(document) as JsonObject;
}

/** The committed, served form: two-space indentation and a final newline. */
export function serializeOpenApi(document: JsonObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key])]));
}

/** Well-known types have their own JSON forms; they are inlined, never components. */
const wellKnown: Record<string, JsonObject> = {
  "google.protobuf.Timestamp": { type: "string", format: "date-time" },
  "google.protobuf.Duration": { type: "string", pattern: "^-?[0-9]+(\\.[0-9]{1,9})?s$", description: "seconds with an s suffix, e.g. 1.5s" },
  "google.protobuf.Struct": { type: "object", additionalProperties: true },
  "google.protobuf.Value": { description: "any JSON value" },
  "google.protobuf.ListValue": { type: "array", items: {} },
  "google.protobuf.FieldMask": { type: "string", description: "comma-separated lowerCamelCase field paths" },
  "google.protobuf.Empty": { type: "object" },
  "google.protobuf.Any": { type: "object", properties: { "@type": { type: "string" } }, required: ["@type"], additionalProperties: true },
  "google.protobuf.DoubleValue": { type: ["number", "null"] },
  "google.protobuf.FloatValue": { type: ["number", "null"] },
  "google.protobuf.Int64Value": { type: ["string", "null"], format: "int64" },
  "google.protobuf.UInt64Value": { type: ["string", "null"], format: "uint64" },
  "google.protobuf.Int32Value": { type: ["integer", "null"], format: "int32" },
  "google.protobuf.UInt32Value": { type: ["integer", "null"], minimum: 0 },
  "google.protobuf.BoolValue": { type: ["boolean", "null"] },
  "google.protobuf.StringValue": { type: ["string", "null"] },
  "google.protobuf.BytesValue": { type: ["string", "null"], contentEncoding: "base64" },
};

/** proto3 JSON: 64-bit integers are strings (numbers are accepted on input), bytes are base64. */
function scalarSchema(scalar: ScalarType): JsonObject {
  switch (scalar) {
    case ScalarType.DOUBLE:
      return { type: "number", format: "double" };
    case ScalarType.FLOAT:
      return { type: "number", format: "float" };
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { type: "integer", format: "int32" };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { type: "integer", minimum: 0, maximum: 4294967295 };
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return { type: "string", format: "int64", pattern: "^-?[0-9]+$" };
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return { type: "string", format: "uint64", pattern: "^[0-9]+$" };
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.BYTES:
      return { type: "string", contentEncoding: "base64" };
    default:
      return { type: "string" };
  }
}

/**
 * Which way a schema travels. An enum's zero `*_UNSPECIFIED` value is what an unset field reads
 * as: answers show it (every field is emitted), but it is not a value to send, so requests get
 * the enum without it (`<enum>.Input`).
 */
type Side = "input" | "output";

const isUnspecified = (v: DescEnumValue) => v.number === 0 && v.name.endsWith("_UNSPECIFIED");

/** The messages an answer can contain: their enums keep the zero value. */
function outputMessages(services: DescService[]): Set<string> {
  const seen = new Set<string>();
  const visit = (message: DescMessage): void => {
    if (seen.has(message.typeName)) return;
    seen.add(message.typeName);
    for (const field of message.fields) {
      if (field.message) visit(field.message);
    }
  };
  services.forEach((s) => s.methods.forEach((m) => visit(m.output)));
  return seen;
}

/** The component schemas of every message and enum reached, by full Protobuf name. */
class ComponentSchemas {
  readonly schemas: Record<string, JsonObject> = {};
  private readonly outputs: Set<string>;

  constructor(services: DescService[]) {
    this.outputs = outputMessages(services);
  }

  messageRef(message: DescMessage): JsonObject {
    const inline = wellKnown[message.typeName];
    if (inline) return inline;
    this.addMessage(message);
    return ref(message.typeName);
  }

  enumRef(desc: DescEnum, side: Side): JsonObject {
    this.schemas[desc.typeName] ??= { type: "string", enum: desc.values.map((v) => v.name) };
    if (side === "output" || !desc.values.some(isUnspecified)) return ref(desc.typeName);
    const name = `${desc.typeName}.Input`;
    this.schemas[name] ??= { type: "string", enum: desc.values.filter((v) => !isUnspecified(v)).map((v) => v.name) };
    return ref(name);
  }

  /** A message only requests carry is described as one; one an answer can hold, as an answer. */
  private sideOf(message: DescMessage): Side {
    return this.outputs.has(message.typeName) ? "output" : "input";
  }

  addMessage(message: DescMessage): void {
    if (this.schemas[message.typeName] || wellKnown[message.typeName]) return;
    this.schemas[message.typeName] = {}; // placed first: recursive messages end here
    const schema: JsonObject = { type: "object", properties: this.properties(message, new Set(), this.sideOf(message)) };
    const required = requiredFields(message, new Set());
    if (required.length > 0) schema.required = required;
    this.schemas[message.typeName] = schema;
    message.nestedEnums.forEach((e) => this.enumRef(e, "output"));
    // Map entries are inlined as objects; other nested messages are components of their own.
    message.nestedMessages.filter((m) => !m.proto.options?.mapEntry).forEach((m) => this.addMessage(m));
  }

  properties(message: DescMessage, exclude: Set<string>, side: Side): JsonObject {
    const properties: JsonObject = {};
    for (const field of message.fields) {
      if (!exclude.has(field.name)) properties[field.jsonName] = this.fieldSchema(field, side);
    }
    return properties;
  }

  fieldSchema(field: DescField, side: Side): JsonObject {
    switch (field.fieldKind) {
      case "scalar":
        return { ...scalarSchema(field.scalar), ...scalarBounds(field), ...pageSizeNote(field) };
      case "enum":
        return this.enumRef(field.enum, side);
      case "message":
        return this.messageRef(field.message);
      case "list": {
        const bounds = listBounds(field);
        return { type: "array", ...bounds.list, items: { ...this.elementSchema(field.listKind, field, side), ...bounds.items } };
      }
      case "map": {
        const bounds = mapBounds(field);
        return { type: "object", ...bounds.map, additionalProperties: { ...this.elementSchema(field.mapKind, field, side), ...bounds.values } };
      }
    }
  }

  private elementSchema(kind: "scalar" | "enum" | "message", field: DescField, side: Side): JsonObject {
    const element = field as { scalar?: ScalarType; enum?: DescEnum; message?: DescMessage };
    if (kind === "enum") return this.enumRef(element.enum!, side);
    if (kind === "message") return this.messageRef(element.message!);
    return scalarSchema(element.scalar!);
  }
}

/** The JSON names of the fields a valid message must carry (see isRequiredField). */
function requiredFields(message: DescMessage, exclude: Set<string>): string[] {
  return message.fields.filter((f) => !exclude.has(f.name) && isRequiredField(f)).map((f) => f.jsonName);
}

/** AIP-158: list calls clamp a page size above the maximum instead of refusing it. */
function pageSizeNote(field: DescField): JsonObject {
  if (field.name !== "page_size") return {};
  return { description: `Default ${DEFAULT_PAGE_SIZE} (also for 0); a size above ${MAX_PAGE_SIZE} is read as ${MAX_PAGE_SIZE}, not refused.` };
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A path variable as the API names it: the request field's JSON name (`{objectId}`). */
function variableName(route: HttpRoute, variable: string): string {
  return route.method.input.fields.find((f) => f.name === variable)?.jsonName ?? variable;
}

const shapeOf = (route: HttpRoute) =>
  route.segments.map((s) => ("literal" in s ? s.literal : "{}")).join("/") + (route.verb ? `:${route.verb}` : "");

/**
 * OpenAPI forbids two templated paths that differ only in variable names, but the contract has
 * some (`GET /custom-fields/{entity_type}` beside `PATCH /custom-fields/{id}`): the transcoder
 * tells them apart by method. Such routes share one path whose variable names every field it binds
 * (`{entityTypeOrId}`); each operation's parameter says which field that is.
 */
function pathTemplates(routes: HttpRoute[]): Map<HttpRoute, string> {
  const byShape = new Map<string, HttpRoute[]>();
  for (const route of routes) byShape.set(shapeOf(route), [...(byShape.get(shapeOf(route)) ?? []), route]);
  const templates = new Map<HttpRoute, string>();
  for (const group of byShape.values()) {
    const parts = group[0].segments.map((segment, i) => {
      if ("literal" in segment) return segment.literal;
      const names = [...new Set(group.map((r) => variableName(r, (r.segments[i] as { variable: string }).variable)))];
      return `{${names.map((n, j) => (j === 0 ? n : upperFirst(n))).join("Or")}}`;
    });
    const template = `/${parts.join("/")}${group[0].verb ? `:${group[0].verb}` : ""}`;
    for (const route of group) templates.set(route, template);
  }
  return templates;
}

function pathItems(routes: HttpRoute[], components: ComponentSchemas): JsonObject {
  const templates = pathTemplates(routes);
  const paths: Record<string, JsonObject> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const template = templates.get(route)!;
    const method = route.httpMethod.toLowerCase();
    paths[template] ??= {};
    if (paths[template][method]) throw new Error(`two routes for ${route.httpMethod} ${template}`);
    let operationId = `${route.method.parent.name}_${route.method.name}`;
    for (let n = 2; operationIds.has(operationId); n++) operationId = `${route.method.parent.name}_${route.method.name}_${n}`;
    operationIds.add(operationId);
    paths[template][method] = operation(route, template, operationId, components);
  }
  return paths;
}

function operation(route: HttpRoute, template: string, operationId: string, components: ComponentSchemas): JsonObject {
  const rpc = `${route.method.parent.typeName}/${route.method.name}`;
  const permission = methodPermissions[rpc];
  const op: JsonObject = {
    operationId,
    tags: [route.method.parent.name],
    summary: route.method.name,
    "x-rpc": rpc,
    parameters: [...pathParameters(route, template, components), ...queryParameters(route, components)],
    responses: {
      "200": { description: "OK", content: { "application/json": { schema: components.messageRef(route.method.output) } } },
    },
  };
  if (permission) op.description = `Requires the permission \`${permission}\`.`;
  const body = requestBody(route, components);
  if (body) op.requestBody = body;
  Object.assign(op.responses as JsonObject, operationErrors(route, permission !== undefined, body !== undefined));
  return op;
}

function pathVariables(route: HttpRoute): string[] {
  return route.segments.flatMap((s) => ("variable" in s ? [s.variable] : []));
}

function pathParameters(route: HttpRoute, template: string, components: ComponentSchemas): JsonObject[] {
  const names = [...template.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]);
  return pathVariables(route).map((variable, i) => {
    const field = route.method.input.fields.find((f) => f.name === variable);
    const parameter: JsonObject = { name: names[i], in: "path", required: true, schema: field ? components.fieldSchema(field, "input") : { type: "string" } };
    if (field && field.jsonName !== names[i]) parameter.description = `the ${field.jsonName} of ${route.method.input.name}`;
    return parameter;
  });
}

/** The fields the transcoder takes from the query: scalars, enums and lists of them. */
function queryParameters(route: HttpRoute, components: ComponentSchemas): JsonObject[] {
  if (route.body === "*") return [];
  const taken = new Set([...pathVariables(route), route.body]);
  const parameters: JsonObject[] = [];
  for (const field of route.method.input.fields) {
    if (taken.has(field.name)) continue;
    const required: JsonObject = isRequiredField(field) ? { required: true } : {};
    if (field.fieldKind === "scalar" || field.fieldKind === "enum") {
      parameters.push({ name: field.jsonName, in: "query", ...required, schema: components.fieldSchema(field, "input") });
    } else if (field.fieldKind === "list" && field.listKind !== "message") {
      parameters.push({ name: field.jsonName, in: "query", style: "form", explode: true, ...required, schema: components.fieldSchema(field, "input") });
    } else if (field.fieldKind === "map" && field.name === "filters" && field.mapKind === "scalar" && field.mapKey === ScalarType.STRING) {
      // deepObject is what openapi-fetch and openapi-generator send for an object by default
      // (`filters[tier__eq]=gold`); the server also takes the bare names (see request-builder.ts).
      const bounds = mapBounds(field);
      parameters.push({
        name: field.jsonName,
        in: "query",
        style: "deepObject",
        explode: true,
        description:
          "custom field filters, `fieldKey__op` to value, e.g. `filters[tier__in]=gold,silver`; " +
          "a bare `tier__in=gold,silver` parameter means the same",
        schema: { type: "object", ...bounds.map, additionalProperties: { type: "string", ...bounds.values } },
      });
    }
  }
  return parameters;
}

function requestBody(route: HttpRoute, components: ComponentSchemas): JsonObject | undefined {
  const input = route.method.input;
  let schema: JsonObject;
  if (route.body === "") return undefined;
  if (route.body === "*") {
    const inPath = new Set(pathVariables(route));
    const required = requiredFields(input, inPath);
    schema =
      inPath.size === 0
        ? components.messageRef(input)
        : { type: "object", properties: components.properties(input, inPath, "input"), ...(required.length > 0 ? { required } : {}) };
  } else {
    const field = input.fields.find((f) => f.name === route.body);
    if (!field) throw new Error(`${input.typeName} has no field ${route.body} for the body of ${route.template}`);
    schema = components.fieldSchema(field, "input");
  }
  return { content: { "application/json": { schema } } };
}

/** The error answers, by the HTTP status Connect gives their codes; all carry the Connect error body. */
const errorStatuses: Record<string, { name: string; description: string }> = {
  "400": { name: "BadRequest", description: "invalid_argument, failed_precondition or out_of_range: the request breaks the contract or the resource is not in the state it needs" },
  "401": { name: "Unauthenticated", description: "unauthenticated: no valid bearer token (the WWW-Authenticate header says why)" },
  "403": { name: "PermissionDenied", description: "permission_denied: the token lacks the permission, or a legal hold forbids the change" },
  "404": { name: "NotFound", description: "not_found: the resource (or one the request names) does not exist for this tenant" },
  "409": { name: "Conflict", description: "already_exists or aborted: the key is taken, or the expected version is stale" },
  "413": { name: "PayloadTooLarge", description: "resource_exhausted: the request body is larger than the server reads" },
  "429": { name: "TooManyRequests", description: "resource_exhausted: rate limited, or a tenant quota is reached (the ErrorInfo reason says which)" },
  "500": { name: "Internal", description: "internal: a defect; the answer says no more" },
  "503": { name: "Unavailable", description: "unavailable: a dependency is down; retry with backoff" },
};

function errorResponses(): JsonObject {
  const responses: JsonObject = {
    Error: { description: "A Connect error; the statuses listed on an operation are the usual ones, not all", content: { "application/json": { schema: ref("connect.Error") } } },
  };
  for (const { name, description } of Object.values(errorStatuses)) {
    responses[name] = { description, content: { "application/json": { schema: ref("connect.Error") } } };
  }
  return responses;
}

/** The error statuses an operation can answer: every call can be refused, throttled or fail. */
function operationErrors(route: HttpRoute, permission: boolean, body: boolean): JsonObject {
  const statuses = ["400", "401", "429", "500", "503"];
  if (permission) statuses.push("403");
  if (pathVariables(route).length > 0 || body) statuses.push("404");
  if (route.httpMethod !== "GET") statuses.push("409");
  if (body) statuses.push("413");
  const responses: JsonObject = { default: { $ref: "#/components/responses/Error" } };
  for (const status of statuses) responses[status] = { $ref: `#/components/responses/${errorStatuses[status].name}` };
  return responses;
}

function connectErrorSchemas(): Record<string, JsonObject> {
  const codes = Object.values(Code).filter((c): c is Code => typeof c === "number").map(codeToString);
  return {
    "connect.Error": {
      type: "object",
      required: ["code"],
      properties: {
        code: { type: "string", enum: codes },
        message: { type: "string" },
        details: { type: "array", items: ref("connect.ErrorDetail") },
      },
    },
    "connect.ErrorDetail": {
      type: "object",
      required: ["type", "value"],
      properties: {
        type: { type: "string", description: "the detail's message name, e.g. google.rpc.ErrorInfo" },
        value: { type: "string", contentEncoding: "base64", description: "the detail in the Protobuf binary format" },
        debug: { description: "the detail as JSON", anyOf: [ref(ErrorInfoSchema.typeName), ref(BadRequestSchema.typeName)] },
      },
    },
  };
}
