import { createRequire } from "node:module";
import type { WorkerOptions } from "@temporalio/worker";

const require = createRequire(import.meta.url);

/** The workflows the worker bundles (and the replay tests replay). */
export const workflowsPath = require.resolve("../../../workflows/index.ts");

export const workflowBundlerOptions: NonNullable<WorkerOptions["bundlerOptions"]> = {
  // Sources import with ".js" specifiers (NodeNext); the bundler must find the ".ts" files.
  webpackConfigHook: (webpackConfig) => {
    webpackConfig.resolve = { ...webpackConfig.resolve, extensionAlias: { ".js": [".ts", ".js"] } };
    return webpackConfig;
  },
};
