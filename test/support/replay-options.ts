import { bundleWorkflowCode, type ReplayWorkerOptions } from "@temporalio/worker";
import { inject } from "vitest";
import { cachedWorkflowBundle } from "../../src/adapters/temporal/workflow-bundle-cache.js";
import { workflowBundlerOptions, workflowsPath } from "../../src/adapters/temporal/workflow-bundle.js";

/**
 * A replay worker's options with the stack's workers' own bundle (TEMPORAL_WORKFLOW_BUNDLE_CACHE):
 * the replay runs the code those workers ran, and skips seconds of bundling.
 */
export async function replayOptions(replayName: string): Promise<ReplayWorkerOptions> {
  const workflowBundle = await cachedWorkflowBundle(inject("stackEnv").TEMPORAL_WORKFLOW_BUNDLE_CACHE, [], () =>
    bundleWorkflowCode({ workflowsPath, webpackConfigHook: workflowBundlerOptions.webpackConfigHook }),
  );
  return { workflowBundle, replayName };
}
