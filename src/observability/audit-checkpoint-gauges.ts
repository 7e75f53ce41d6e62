import { Gauge, type Registry } from "prom-client";
import { unsignedEntries } from "../domain/audit/chain/checkpoint-entry.js";

/** One tenant's chain head and its newest signed checkpoint, if any. */
export interface AuditCheckpointState {
  tenant: string;
  headSequence: number;
  /** `ownEntryNext`: the entry right after it is the checkpoint's own (AUDIT_CHECKPOINT_SIGNED). */
  checkpoint?: { sequence: number; signedAt: Date; ownEntryNext: boolean };
}

/**
 * The last verified checkpoint per tenant: a checkpoint is signed only over a chain that verified
 * (src/app/audit/checkpoints/sign-chain-head.ts), so the newest one is the last verification.
 * Signing is refused on a broken chain in the worker, which serves no metrics: the refusal is
 * logged there ("audit chain does not verify") and shows here as `audit_unsigned_entries` that
 * never return to 0 while `audit_last_checkpoint_timestamp_seconds` stops moving. An alert:
 * `audit_unsigned_entries > 0 and time() - audit_last_checkpoint_timestamp_seconds > 2 * AUDIT_CHECKPOINT_INTERVAL_SECONDS`
 * (a tenant never signed has no timestamp; `audit_unsigned_entries` alone then).
 * Read from PostgreSQL, so every API replica reports the same values.
 */
export function registerAuditCheckpointGauges(registry: Registry, read: () => Promise<AuditCheckpointState[] | undefined>): void {
  const gauge = (name: string, help: string, fill: (g: Gauge<string>, state: AuditCheckpointState) => void) => {
    const metric: Gauge<string> = new Gauge({
      name,
      help,
      labelNames: ["tenant"],
      registers: [registry],
      async collect() {
        const states = await read();
        metric.reset();
        for (const state of states ?? []) fill(metric, state);
      },
    });
  };
  gauge("audit_last_checkpoint_sequence", "Sequence of the newest signed (so verified) checkpoint of the tenant's audit chain", (g, s) => {
    if (s.checkpoint) g.set({ tenant: s.tenant }, s.checkpoint.sequence);
  });
  gauge("audit_last_checkpoint_timestamp_seconds", "When the newest checkpoint of the tenant's audit chain was signed, Unix seconds", (g, s) => {
    if (s.checkpoint) g.set({ tenant: s.tenant }, s.checkpoint.signedAt.getTime() / 1000);
  });
  gauge(
    "audit_unsigned_entries",
    "Audit entries past the tenant's newest checkpoint, not counting its own AUDIT_CHECKPOINT_SIGNED entry right after it: back to 0 after each signing, growing while signing is refused (a broken chain)",
    (g, s) => g.set({ tenant: s.tenant }, unsignedEntries(s.headSequence, s.checkpoint)),
  );
}
