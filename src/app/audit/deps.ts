import type { ChainProblem } from "../../domain/audit/chain/chain-link.js";
import type { AuditChainReader, AuditCheckpointStore, AuditSigningKeys, AuditTrail } from "./port.js";

/** What the audit use cases reach: the trail, its hash chain, the checkpoints and their keys. */
export interface AuditDeps {
  trail: AuditTrail;
  chain: AuditChainReader;
  checkpoints: AuditCheckpointStore;
  keys: AuditSigningKeys;
  now(): Date;
  /** Told when a checkpoint is refused because the chain does not verify (logged as an error). */
  brokenChain?(tenantId: string, problem: ChainProblem): void;
}
