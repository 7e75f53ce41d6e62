import type { AuditDeps } from "../deps.js";

/** What signing checkpoints reaches: the chain, the checkpoints, the keys, the clock, and who hears of a broken chain. */
export type CheckpointDeps = Pick<AuditDeps, "chain" | "checkpoints" | "keys" | "now" | "brokenChain">;
