// The import rules of docs/architecture.md, checked by `npm run lint` (part of `npm test`), and
// the regular-expression rules that keep caller input from costing more than linear time.
// Nothing here is about style.
import { builtinModules } from "node:module";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

/** The npm libraries domain code may use: pure computation, no I/O. */
const DOMAIN_LIBRARIES = ["saxes", "file-type", "re2-wasm", "re2-wasm/build/wasm/re2.js", "re2js", "mathjs"];

const connectOnlyInRpc = {
  group: ["@connectrpc/*"],
  message: "Connect belongs to src/rpc (and the clients); use cases and adapters speak in domain terms.",
};

/**
 * Packages and built-ins by layer (core no-restricted-imports). A file gets one entry: for the
 * same rule, the last matching config object wins.
 */
const restrictedImports = [
  {
    files: ["src/domain/**"],
    patterns: [
      {
        regex: `^(?!\\.|(${DOMAIN_LIBRARIES.join("|")})$)`,
        message: `src/domain is pure: it imports only itself and ${DOMAIN_LIBRARIES.join(", ")} (no node:*, no I/O).`,
      },
    ],
  },
  {
    files: ["src/app/**", "src/adapters/**", "src/observability/**", "src/stack/**", "src/config.ts", "src/logger.ts", "workflows/activities/**"],
    patterns: [connectOnlyInRpc],
  },
  {
    // The rule temporalio/samples-typescript ships: workflow code runs in Temporal's deterministic
    // sandbox, where Node's built-ins are absent.
    files: ["workflows/*.ts"],
    paths: nodeBuiltins.map((name) => ({ name, message: "Workflow code runs in Temporal's sandbox: no Node built-ins (do the I/O in an activity)." })),
    patterns: [connectOnlyInRpc],
  },
];

/** Files in `target` may not import `from` (but `except`): import-x/no-restricted-paths. */
const zones = [
  { target: "src/domain", from: "src", except: ["./domain"], message: "src/domain imports only src/domain." },
  { target: "src/domain", from: "workflows", message: "src/domain imports only src/domain." },
  {
    target: "src/app",
    from: "src",
    except: ["./domain", "./app", "./config.ts"],
    message: "src/app imports src/domain and its own ports; adapters implement the ports and src/main wires them.",
  },
  { target: "src/app", from: "workflows", message: "src/app imports src/domain and its own ports, not workflows." },
  {
    target: "src/adapters",
    from: "src/app/**",
    except: ["**/src/app/*/port.ts"],
    message: "An adapter implements a port (src/app/<module>/port.ts) and imports nothing else of src/app.",
  },
  { target: "src/adapters", from: "src/rpc", message: "Adapters do not import src/rpc." },
  { target: ["src/adapters/*.ts", "src/adapters/!(temporal)/**"], from: "workflows", message: "Adapters do not import workflows." },
  {
    // The Temporal client starts, signals and updates the workflows: it needs their contract.
    target: "src/adapters/temporal/**",
    from: "workflows",
    except: ["./definitions.ts", "./search-attributes.ts", "./activities/sweep-types.ts", "./activities/webhook-types.ts"],
    message: "The Temporal adapters import the workflows' contract (definitions, search attributes, input types) only.",
  },
  {
    target: ["src/domain", "src/app", "src/adapters", "src/observability", "src/stack", "src/config.ts", "src/logger.ts", "workflows"],
    from: "gen",
    message: "Generated messages and service descriptors belong to src/rpc (and the clients).",
  },
  {
    target: "src/fields-client",
    from: ["src/adapters", "src/main", "src/stack", "src/observability", "src/cli", "workflows"],
    message: "The fields client runs in browsers: it uses the domain, the contract and its mappers, never server-side I/O.",
  },
  { target: "src/observability", from: "src/rpc", message: "src/observability provides meters and tracers; the interceptors that use them live in src/rpc." },
  {
    target: "workflows/*.ts",
    from: ["src/adapters", "src/rpc", "src/main", "src/observability", "src/stack"],
    message: "Workflow files import the domain and activity types only.",
  },
  {
    target: ["src/!(main)/**", "src/*.ts", "workflows", "test", "bench", "scripts"],
    from: "src/main",
    message: "src/main is the composition root: nothing imports it.",
  },
];

export default [
  { ignores: ["gen/**", "openapi/**", ".tools/**", ".proto-deps/**", ".test-data/**", ".data/**", ".bench-data/**", "test-output/**"] },
  {
    files: ["src/**/*.ts", "workflows/**/*.ts", "test/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts"],
    languageOptions: { parser: tseslint.parser, ecmaVersion: "latest", sourceType: "module" },
    plugins: { "import-x": importX },
    // The code keeps a few eslint-disable comments for rules that are not enabled here.
    linterOptions: { reportUnusedDisableDirectives: "off" },
    // Sources import with ".js" specifiers (NodeNext) that name ".ts" files.
    settings: { "import-x/resolver-next": [createNodeResolver({ extensionAlias: { ".js": [".ts", ".js"] } })] },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones }],
      // An import that does not resolve would slip past the zones.
      "import-x/no-unresolved": "error",
    },
  },
  {
    // Only the two backtracking rules of the plugin's recommended set: the others are style.
    files: ["src/**/*.ts", "workflows/**/*.ts", "test/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts"],
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-backtracking": "error",
      // An unanchored search retried from every start (/\.+$/ on "....x") is quadratic too.
      "regexp/no-super-linear-move": "error",
    },
  },
  ...restrictedImports.map(({ files, paths = [], patterns = [] }) => ({
    files,
    rules: { "no-restricted-imports": ["error", { paths, patterns }] },
  })),
];
