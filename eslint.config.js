// The import rules of docs/architecture.md, checked by `npm run lint` (part of `npm test`), and
// the regular-expression rules that keep caller input from costing more than linear time.
// Nothing here is about style. test/unit/architecture/lint-rules.test.ts plants a forbidden import
// of each kind and checks that it fails.
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";
import noImportCycle from "./lint/no-import-cycle.js";

/** The npm libraries domain code may use: pure computation, no I/O. */
const DOMAIN_LIBRARIES = ["saxes", "file-type", "re2-wasm", "re2-wasm/build/wasm/re2.js", "re2js", "mathjs"];

/**
 * What use cases may import of npm and Node: the domain's libraries, and hashing. The database,
 * S3, Temporal, Redis and the file system are reached through the module's port, which
 * src/adapters implement.
 */
const APP_LIBRARIES = [...DOMAIN_LIBRARIES, "node:crypto"];

/** Workflow code runs in Temporal's deterministic sandbox: its API and nothing that does I/O. */
const WORKFLOW_LIBRARIES = ["@temporalio/workflow", "@temporalio/common"];

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A pattern that refuses every package and built-in but `libraries` (relative imports pass). */
function onlyLibraries(libraries, message) {
  return { regex: `^(?!\\.|(${libraries.map(escapeRegExp).join("|")})$)`, message };
}

const connectOnlyInRpc = {
  group: ["@connectrpc/*"],
  message: "Connect belongs to src/rpc (and the clients); use cases and adapters speak in domain terms.",
};

/**
 * Packages and built-ins by layer (@typescript-eslint/no-restricted-imports: core
 * no-restricted-imports plus `allowTypeImports`). A file gets one entry: for the same rule, the
 * last matching config object wins.
 */
const restrictedImports = [
  {
    files: ["src/domain/**"],
    patterns: [onlyLibraries(DOMAIN_LIBRARIES, `src/domain is pure: it imports only itself and ${DOMAIN_LIBRARIES.join(", ")} (no node:*, no I/O).`)],
  },
  {
    files: ["src/app/**"],
    patterns: [
      onlyLibraries(
        APP_LIBRARIES,
        `src/app reaches the outside through its ports (src/adapters implement them): of npm and Node it imports only ${APP_LIBRARIES.join(", ")}.`,
      ),
    ],
  },
  {
    files: ["src/adapters/**", "src/observability/**", "src/stack/**", "src/config/**", "src/logger.ts", "workflows/activities/**"],
    patterns: [connectOnlyInRpc],
  },
  {
    files: ["src/rpc/**"],
    patterns: [
      {
        group: ["@mikro-orm/*", "@aws-sdk/*", "@temporalio/client", "ioredis"],
        message: "Handlers translate and call use cases: the database, S3, Temporal and Redis clients belong to src/adapters.",
      },
    ],
  },
  {
    // Node built-ins are absent from the sandbox (the rule temporalio/samples-typescript ships).
    files: ["workflows/*.ts"],
    patterns: [
      onlyLibraries(WORKFLOW_LIBRARIES, `Workflow code runs in Temporal's sandbox: of npm it imports only ${WORKFLOW_LIBRARIES.join(", ")}, no Node built-ins (do the I/O in an activity).`),
      {
        // Types are erased before the bundle is built; a value would bring use-case code into the sandbox.
        regex: "/src/app/",
        allowTypeImports: true,
        message: "Workflow files import only types from src/app (its argument and port types); the use cases run in activities.",
      },
    ],
  },
];

/** Files in `target` may not import `from` (but `except`): import-x/no-restricted-paths. */
const zones = [
  { target: "src/domain", from: "src", except: ["./domain"], message: "src/domain imports only src/domain." },
  { target: "src/domain", from: "workflows", message: "src/domain imports only src/domain." },
  {
    target: "src/app",
    from: "src",
    except: ["./domain", "./app", "./config"],
    message: "src/app imports src/domain and its own ports; adapters implement the ports and src/main wires them.",
  },
  { target: "src/app", from: "workflows", message: "src/app imports src/domain and its own ports, not workflows." },
  {
    target: "src/contract",
    from: "src",
    except: ["./domain", "./contract"],
    message: "src/contract maps the contract's messages to domain values: it imports src/domain and gen/ only.",
  },
  { target: "src/contract", from: "workflows", message: "src/contract imports src/domain and gen/ only." },
  {
    target: "src/adapters",
    from: "src/app/**",
    except: ["**/src/app/**/port.ts"],
    message: "An adapter implements a port (a port.ts under src/app: src/app/<module>/port.ts, or src/app/<module>/<caller>/port.ts) and imports nothing else of src/app.",
  },
  { target: "src/adapters", from: "src/rpc", message: "Adapters do not import src/rpc." },
  { target: ["src/adapters/*.ts", "src/adapters/!(temporal)/**"], from: "workflows", message: "Adapters do not import workflows." },
  {
    // The Temporal client starts, signals and updates the workflows: it needs their contract.
    target: "src/adapters/temporal/**",
    from: "workflows",
    except: ["./definitions.ts", "./search-attributes.ts", "./activities/sweep-types.ts", "./activities/webhook-types.ts", "./activities/audit-checkpoint-types.ts", "./activities/rescan-types.ts"],
    message: "The Temporal adapters import the workflows' contract (definitions, search attributes, input types) only.",
  },
  {
    target: ["src/domain", "src/app", "src/adapters", "src/observability", "src/stack", "src/config", "src/logger.ts", "workflows"],
    from: "packages/client/gen",
    message: "Generated messages and service descriptors belong to src/rpc (and the clients).",
  },
  {
    // Its bundles inline what it imports of src/ (docs/clients.md): only the pure code may ship.
    target: "packages/client/src",
    from: "src",
    except: ["./domain", "./contract", "./app/customfields/rule-context.ts"],
    message: "The client package (browsers, other services) uses the domain, the contract's mappers (src/contract) and the rule context, never the server's code.",
  },
  { target: "packages/client/src", from: "workflows", message: "The client package never imports the server's code." },
  { target: "src/observability", from: "src/rpc", message: "src/observability provides meters and tracers; the interceptors that use them live in src/rpc." },
  { target: "src/observability", from: "src/adapters", message: "src/observability provides meters and tracers; src/main hands adapters what they measure." },
  {
    target: "src/rpc",
    from: ["src/adapters", "workflows"],
    message: "Handlers translate and call use cases (src/app); adapters and workflows are wired in src/main.",
  },
  {
    target: "workflows/*.ts",
    from: ["src/adapters", "src/rpc", "src/main", "src/observability", "src/stack"],
    message: "Workflow files import the domain and activity types only.",
  },
  {
    target: "workflows/activities",
    from: ["src/adapters", "src/rpc"],
    message: "Activities call use cases through ports (src/app); src/main hands them the adapters.",
  },
  {
    target: ["src/!(main)/**", "src/*.ts", "workflows", "test", "bench", "scripts"],
    from: "src/main",
    message: "src/main is the composition root: nothing imports it.",
  },
];

export default [
  { ignores: ["packages/client/gen/**", "packages/client/dist/**", "openapi/**", ".tools/**", ".proto-deps/**", ".test-data/**", ".data/**", ".bench-data/**", "test-output/**"] },
  {
    files: ["src/**/*.ts", "workflows/**/*.ts", "test/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts", "packages/client/src/**/*.ts", "packages/client/scripts/**/*.ts"],
    languageOptions: { parser: tseslint.parser, ecmaVersion: "latest", sourceType: "module" },
    plugins: { "import-x": importX, "@typescript-eslint": tseslint.plugin, local: { rules: { "no-import-cycle": noImportCycle } } },
    // The code keeps a few eslint-disable comments for rules that are not enabled here.
    linterOptions: { reportUnusedDisableDirectives: "off" },
    // Sources import with ".js" specifiers (NodeNext) that name ".ts" files.
    settings: {
      "import-x/resolver-next": [createNodeResolver({ extensionAlias: { ".js": [".ts", ".js"] }, conditionNames: ["source", "import", "default"] })],
      // import-x/no-cycle reads the imported files: without these it skips every ".ts" file.
      "import-x/extensions": [".ts", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones }],
      // An import that does not resolve would slip past the zones.
      "import-x/no-unresolved": "error",
    },
  },
  {
    files: ["src/**/*.ts", "workflows/**/*.ts", "packages/client/src/**/*.ts"],
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      // The same with type-only imports counted (import-x/no-cycle skips them).
      "local/no-import-cycle": "error",
    },
  },
  {
    // Only the two backtracking rules of the plugin's recommended set: the others are style.
    files: ["src/**/*.ts", "workflows/**/*.ts", "test/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts", "packages/client/src/**/*.ts", "packages/client/scripts/**/*.ts"],
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-backtracking": "error",
      // An unanchored search retried from every start (/\.+$/ on "....x") is quadratic too.
      "regexp/no-super-linear-move": "error",
    },
  },
  ...restrictedImports.map(({ files, patterns }) => ({
    files,
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns }] },
  })),
];
