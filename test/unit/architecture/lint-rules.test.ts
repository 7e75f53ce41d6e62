/**
 * The import rules of docs/architecture.md hold because `npm run lint` fails when one is broken:
 * each forbidden import below is planted, alone, in a file of its layer (ESLint's lintText with
 * that file's path, so nothing is written), and must fail with its rule's message; an import the
 * layer may make must pass.
 */
import { fileURLToPath } from "node:url";
import { ESLint, type Linter } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function lint(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  return result.messages;
}

const RESTRICTED = "@typescript-eslint/no-restricted-imports";
const ZONES = "import-x/no-restricted-paths";

interface Planted {
  what: string;
  file: string;
  code: string;
  rule: string;
  message: string;
}

const forbidden: Planted[] = [
  {
    what: "src/app importing @mikro-orm/*",
    file: "src/app/files/initiate-upload.ts",
    code: `import { raw } from "@mikro-orm/core";`,
    rule: RESTRICTED,
    message: "src/app reaches the outside through its ports",
  },
  {
    what: "src/app importing @aws-sdk/*",
    file: "src/app/files/initiate-upload.ts",
    code: `import { S3Client } from "@aws-sdk/client-s3";`,
    rule: RESTRICTED,
    message: "src/app reaches the outside through its ports",
  },
  {
    what: "src/app importing @temporalio/client",
    file: "src/app/files/initiate-upload.ts",
    code: `import { Client } from "@temporalio/client";`,
    rule: RESTRICTED,
    message: "src/app reaches the outside through its ports",
  },
  {
    what: "src/app importing node:fs",
    file: "src/app/files/initiate-upload.ts",
    code: `import { readFileSync } from "node:fs";`,
    rule: RESTRICTED,
    message: "src/app reaches the outside through its ports",
  },
  {
    what: "a workflow file value-importing src/app",
    file: "workflows/object-lifecycle.ts",
    code: `import { expireObject } from "../src/app/files/lifecycle/expire-object.js";`,
    rule: RESTRICTED,
    message: "Workflow files import only types from src/app",
  },
  {
    what: "a workflow file importing @aws-sdk/*",
    file: "workflows/object-lifecycle.ts",
    code: `import { S3Client } from "@aws-sdk/client-s3";`,
    rule: RESTRICTED,
    message: "Workflow code runs in Temporal's sandbox",
  },
  {
    what: "a workflow file importing @mikro-orm/*",
    file: "workflows/object-lifecycle.ts",
    code: `import { raw } from "@mikro-orm/core";`,
    rule: RESTRICTED,
    message: "Workflow code runs in Temporal's sandbox",
  },
  {
    what: "a workflow file importing a Node built-in",
    file: "workflows/object-lifecycle.ts",
    code: `import { readFileSync } from "fs";`,
    rule: RESTRICTED,
    message: "no Node built-ins",
  },
  {
    what: "an activity importing src/adapters",
    file: "workflows/activities/webhook-activities.ts",
    code: `import { WebhookOutboxStore } from "../../src/adapters/postgres/webhook-outbox-store.js";`,
    rule: ZONES,
    message: "Activities call use cases through ports",
  },
  {
    what: "an adapter importing a use case (it implements a port and imports nothing else of src/app)",
    file: "src/adapters/postgres/webhook-outbox-store.ts",
    code: `import { planDeliveries } from "../../app/webhooks/delivery/plan-deliveries.js";`,
    rule: ZONES,
    message: "An adapter implements a port",
  },
  {
    what: "an activity importing src/rpc",
    file: "workflows/activities/webhook-activities.ts",
    code: `import { storedObjectJson } from "../../src/rpc/stored-object-json.js";`,
    rule: ZONES,
    message: "Activities call use cases through ports",
  },
  {
    what: "src/rpc importing src/adapters",
    file: "src/rpc/permissions.ts",
    code: `import { WebhookOutboxStore } from "../adapters/postgres/webhook-outbox-store.js";`,
    rule: ZONES,
    message: "Handlers translate and call use cases (src/app)",
  },
  {
    what: "src/rpc importing @mikro-orm/*",
    file: "src/rpc/permissions.ts",
    code: `import { raw } from "@mikro-orm/core";`,
    rule: RESTRICTED,
    message: "the database, S3, Temporal and Redis clients belong to src/adapters",
  },
  {
    what: "src/rpc importing workflows",
    file: "src/rpc/permissions.ts",
    code: `import { webhookWorkflowId } from "../../workflows/activities/webhook-types.js";`,
    rule: ZONES,
    message: "Handlers translate and call use cases (src/app)",
  },
  {
    what: "src/observability importing src/adapters",
    file: "src/observability/metrics.ts",
    code: `import { SecretCipher } from "../adapters/webhooks/secret-cipher.js";`,
    rule: ZONES,
    message: "src/main hands adapters what they measure",
  },
  {
    what: "the fields client importing src/rpc",
    file: "packages/client/src/fields-client/fields-client.ts",
    code: `import { toDefinitionMessage } from "../../../../src/rpc/handlers/field-definition-mapper.js";`,
    rule: ZONES,
    message: "The client package (browsers, other services) uses the domain",
  },
  {
    what: "the browser uploader importing a use case (its bundle would ship the server)",
    file: "packages/client/src/browser-uploader/class-rules.ts",
    code: `import { initiateUpload } from "../../../../src/app/files/initiate-upload.js";`,
    rule: ZONES,
    message: "The client package (browsers, other services) uses the domain",
  },
  {
    what: "a type-only import of a storage client in src/app (types are no way around a port)",
    file: "src/app/files/initiate-upload.ts",
    code: `import type { EntityManager } from "@mikro-orm/postgresql";`,
    rule: RESTRICTED,
    message: "src/app reaches the outside through its ports",
  },
  {
    what: "a circle of type-only imports",
    file: "src/app/readiness-report.ts",
    code: `import type { DependencyProbe } from "./readiness.js";`,
    rule: "local/no-import-cycle",
    message: "Import cycle (type-only imports count too): src/app/readiness-report.ts → src/app/readiness.ts → src/app/readiness-report.ts",
  },
  {
    what: "a circle of value imports",
    file: "src/app/cached-readiness.ts",
    code: `import { createReadiness } from "./readiness.js";\nexport const create = createReadiness;`,
    rule: "import-x/no-cycle",
    message: "Dependency cycle detected",
  },
];

const permitted: Omit<Planted, "rule" | "message">[] = [
  {
    what: "src/domain: its libraries",
    file: "src/domain/customfields/formula.ts",
    code: `import { create, all } from "mathjs";\nimport { RE2 } from "re2-wasm";`,
  },
  {
    what: "src/app: the domain, its own ports, node:crypto",
    file: "src/app/files/initiate-upload.ts",
    code: `import { createHash } from "node:crypto";\nimport type { Actor } from "../../domain/actor.js";\nimport type { StoredObjects } from "./port.js";`,
  },
  {
    what: "a workflow file: Temporal's workflow API, types of src/app, the domain",
    file: "workflows/object-lifecycle.ts",
    code: `import { proxyActivities } from "@temporalio/workflow";\nimport type { CompleteArgs } from "../src/app/files/port.js";\nimport { phaseOf } from "../src/domain/files/lifecycle-state.js";`,
  },
  {
    what: "an activity: use cases and their ports",
    file: "workflows/activities/webhook-activities.ts",
    code: `import type { WebhookOutbox } from "../../src/app/webhooks/delivery/port.js";\nimport { sendDelivery } from "../../src/app/webhooks/delivery/send-delivery.js";`,
  },
  {
    what: "an adapter: the port it implements, a caller folder's port.ts included",
    file: "src/adapters/postgres/webhook-outbox-store.ts",
    code: `import type { WebhookOutbox } from "../../app/webhooks/delivery/port.js";\nimport type { AuditTrail } from "../../app/audit/port.js";`,
  },
  {
    what: "src/rpc: Connect, the contract, use cases",
    file: "src/rpc/permissions.ts",
    code: `import { Code } from "@connectrpc/connect";\nimport type { Readiness } from "../app/readiness.js";`,
  },
  {
    what: "src/observability: its meters",
    file: "src/observability/metrics.ts",
    code: `import { Registry } from "prom-client";`,
  },
  {
    what: "the fields client: the contract's mappers and the domain",
    file: "packages/client/src/fields-client/fields-client.ts",
    code: `import { fromDefinitionMessage } from "../../../../src/contract/field-definition-messages.js";\nimport type { FieldDefinition } from "../../../../src/domain/customfields/definition.js";`,
  },
];

describe("npm run lint refuses each forbidden import", () => {
  it.each(forbidden)("$what", async ({ file, code, rule, message }) => {
    const messages = await lint(file, code);
    expect(messages.map((m) => m.ruleId)).toContain(rule);
    expect(messages.find((m) => m.ruleId === rule)?.message).toContain(message);
  });
});

describe("npm run lint passes what each layer may import", () => {
  it.each(permitted)("$what", async ({ file, code }) => {
    expect(await lint(file, code)).toEqual([]);
  });
});
