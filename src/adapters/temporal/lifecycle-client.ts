import {
  Client,
  type ClientInterceptors,
  Connection,
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
  WorkflowNotFoundError,
  WithStartWorkflowOperation,
} from "@temporalio/client";
import type { Config } from "../../config/config.js";
import type { CallScope } from "../../domain/call-scope.js";
import type { StoredObjectView } from "../../domain/files/stored-object.js";
import { lifecycleWorkflowId } from "../../domain/files/stored-object.js";
import type { CompleteArgs, LifecycleStart, LifecycleWake, ObjectLifecycle } from "../../app/files/port.js";
import {
  completeUpdate,
  LIFECYCLE_WORKFLOW,
  type LifecycleInput,
  type ObjectRef,
  retentionChangedSignal,
} from "../../../workflows/definitions.js";
import { OBJECT_CLASS, OBJECT_STATUS, OWNER_ENTITY_TYPE, TENANT_ID, UPLOAD_MODE } from "../../../workflows/search-attributes.js";
import { translateTemporalError } from "./temporal-errors.js";
import { retryWhileTaskFailed } from "./workflow-task-failed.js";

const PING_DEADLINE_MS = 5000;

/** The API's handle on object workflows. Temporal errors leave as domain errors. */
export class LifecycleClient implements ObjectLifecycle {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly timeouts: LifecycleInput["timeouts"],
  ) {}

  /**
   * The client the API and the worker both use, on the configured server and task queue.
   * `interceptors`: e.g. OpenTelemetry's, which carry the caller's trace into the workflow.
   */
  static async connect(config: Pick<Config, "temporal" | "scan">, interceptors?: ClientInterceptors) {
    const { address, namespace, taskQueue } = config.temporal;
    // Few, quick retries: when Temporal is down a call should answer `unavailable` within
    // seconds, not after the SDK's default of ten attempts.
    const connection = await Connection.connect({
      address,
      connectTimeout: "5s",
      interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 3, initialIntervalMs: () => 200, maxIntervalMs: () => 1000 }))],
    });
    const timeouts = { scanSeconds: config.scan.timeoutSeconds, heartbeatSeconds: config.scan.heartbeatTimeoutSeconds };
    return new LifecycleClient(new Client({ connection, namespace, interceptors }), taskQueue, timeouts);
  }

  /**
   * Starts the object's workflow at initiate, delayed to the abandoned-upload deadline: until
   * complete (an Update-with-start) or a signal-with-start (hold, delete) wakes it, it is one
   * started event and no workflow task, and left alone it runs first at its deadline and expires
   * the upload. Visible in the UI from the start, with its search attributes.
   */
  async start(ref: ObjectRef, start: LifecycleStart, call?: CallScope): Promise<void> {
    const delayMs = start.pendingDeadline.getTime() - Date.now();
    await this.guard("start workflow", () =>
      this.bounded(call, () => this.client.workflow.start(LIFECYCLE_WORKFLOW, {
        taskQueue: this.taskQueue,
        workflowId: lifecycleWorkflowId(ref.tenantId, ref.objectId),
        staticSummary: `${start.uploadMode === "MULTIPART" ? "multipart upload" : "upload"} initiated: waits for complete until the abandoned-upload deadline`,
        ...(delayMs >= 1000 ? { startDelay: delayMs } : {}),
        args: [
          { ...ref, mode: "upload", pendingDeadline: start.pendingDeadline.toISOString(), uploadMode: start.uploadMode, timeouts: this.timeouts } satisfies LifecycleInput,
        ],
        typedSearchAttributes: [
          { key: TENANT_ID, value: ref.tenantId },
          { key: OBJECT_STATUS, value: "PENDING_UPLOAD" },
          { key: OBJECT_CLASS, value: start.objectClass },
          { key: OWNER_ENTITY_TYPE, value: start.ownerEntityType },
          { key: UPLOAD_MODE, value: start.uploadMode },
        ],
      })),
    );
  }

  /** Ends the workflow of an object whose rows were never stored. */
  async withdraw(ref: ObjectRef, reason: string): Promise<void> {
    await this.guard("withdraw workflow", () => this.client.workflow.getHandle(lifecycleWorkflowId(ref.tenantId, ref.objectId)).terminate(reason));
  }

  /** Deletes the execution (terminating it first when it still runs), so no history stays. */
  async discard(ref: ObjectRef): Promise<void> {
    const workflowId = lifecycleWorkflowId(ref.tenantId, ref.objectId);
    await this.guard("discard workflow", () =>
      this.client.workflowService.deleteWorkflowExecution({ namespace: this.client.options.namespace, workflowExecution: { workflowId } }),
    );
  }

  /**
   * One Update per complete; with `waitSeconds` it answers once the scan ended. Always an
   * Update-with-start: it ends the start delay of the workflow initiate started (a plain Update
   * would wait for the delay), and starts the workflow when it is missing (its start failed
   * after initiate committed, or it had ended).
   */
  async complete(ref: ObjectRef, args: CompleteArgs): Promise<StoredObjectView> {
    const workflowId = lifecycleWorkflowId(ref.tenantId, ref.objectId);
    return this.guard("complete", () =>
      retryWhileTaskFailed(() =>
        this.client.workflow.executeUpdateWithStart(completeUpdate, {
          args: [args],
          startWorkflowOperation: new WithStartWorkflowOperation(LIFECYCLE_WORKFLOW, {
            taskQueue: this.taskQueue,
            workflowId,
            workflowIdConflictPolicy: "USE_EXISTING",
            // Only a run this call starts carries it: initiate's run, or its start had failed.
            staticSummary: "complete called: verify and scan the upload",
            args: [this.resumeInput(ref)],
            typedSearchAttributes: [{ key: TENANT_ID, value: ref.tenantId }],
          }),
        }),
      ),
    );
  }

  private resumeInput(ref: ObjectRef): LifecycleInput {
    return { tenantId: ref.tenantId, objectId: ref.objectId.toLowerCase(), mode: "resume", timeouts: this.timeouts };
  }

  /**
   * Tells the object's workflow to re-read its state (a hold, release, delete, replacement or
   * restore changed it; the sweep re-drives a stuck scan), starting it again when it had ended.
   */
  async retentionChanged(ref: ObjectRef, why: LifecycleWake): Promise<void> {
    await this.guard("signal retention", () =>
      this.client.workflow.signalWithStart(LIFECYCLE_WORKFLOW, {
        taskQueue: this.taskQueue,
        staticSummary: why,
        workflowId: lifecycleWorkflowId(ref.tenantId, ref.objectId),
        args: [this.resumeInput(ref)],
        signal: retentionChangedSignal,
        signalArgs: [],
        typedSearchAttributes: [{ key: TENANT_ID, value: ref.tenantId }],
      }),
    );
  }

  /** Whether the object's workflow is running now (the sweep leaves those to their timers). */
  async isRunning(ref: ObjectRef): Promise<boolean> {
    try {
      const description = await this.client.workflow.getHandle(lifecycleWorkflowId(ref.tenantId, ref.objectId)).describe();
      return description.status.name === "RUNNING";
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw translateTemporalError(error, "describe workflow");
    }
  }

  /** Bounded: a server that accepts the call and never answers must not hang /readyz. */
  async ping(): Promise<void> {
    await this.client.connection.withDeadline(Date.now() + PING_DEADLINE_MS, () => this.client.workflowService.getSystemInfo({}));
  }

  async close(): Promise<void> {
    await this.client.connection.close();
  }

  /** The request cancelled by the call's signal (its deadline, or its caller gone). */
  private bounded<T>(call: CallScope | undefined, work: () => Promise<T>): Promise<T> {
    return call ? this.client.withAbortSignal(call.signal, work) : work();
  }

  private async guard<T>(action: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw translateTemporalError(error, action);
    }
  }
}
