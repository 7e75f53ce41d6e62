import type { RescanCandidate, RescanStart } from "../../src/app/files/rescan/port.js";
import type { RescanOutcome } from "../../src/app/files/rescan/rescan-object.js";
import type { RescanCursor, RescanWindow } from "../../src/domain/files/malware/rescan-window.js";
import type { ObjectRef } from "../../src/domain/files/object-ref.js";

/** The re-scan's progress: the workflow's query answer, its memo, and what continue-as-new carries. */
export interface RescanProgress {
  /** Objects read from the window so far. */
  total: number;
  /** Objects the engine scanned again (the others were no longer READY or already scanned with the version). */
  scanned: number;
  quarantined: number;
  /** READY rows whose bytes the bucket no longer has: nothing to scan (an operator's matter). */
  missing?: number;
  pages: number;
  /** After the last object read; absent before the first page and after the last. */
  cursor?: RescanCursor;
  done: boolean;
}

export interface RescanInput extends RescanStart {
  /** Objects per page (MALWARE_RESCAN_PAGE_SIZE). */
  pageSize: number;
  /** Objects of a page scanned at once (MALWARE_RESCAN_CONCURRENCY). */
  concurrency: number;
  /** The scan activity's budget and heartbeat, as the object lifecycle's. */
  timeouts: { scanSeconds: number; heartbeatSeconds: number };
  /** Carried over continue-as-new; absent at the start. */
  progress?: RescanProgress;
}

export interface RescanActivities {
  readRescanPage(window: RescanWindow, after: RescanCursor | undefined, limit: number): Promise<RescanCandidate[]>;
  rescanObject(ref: ObjectRef, databaseVersion: number): Promise<RescanOutcome>;
}
