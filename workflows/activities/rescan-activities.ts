import type { RescanDeps } from "../../src/app/files/rescan/rescan-object.js";
import { rescanObject } from "../../src/app/files/rescan/rescan-object.js";
import { workflowCorrelation } from "./activity-correlation.js";
import type { RescanActivities } from "./rescan-types.js";

/** The re-scan's activities: thin wrappers over src/app/files/rescan. */
export function createRescanActivities(deps: RescanDeps): RescanActivities {
  return {
    readRescanPage: (window, after, limit) => deps.objects.readyPage(window, after, limit),
    rescanObject: (ref, databaseVersion) => rescanObject(deps, ref, databaseVersion, workflowCorrelation()),
  };
}
