/**
 * Who may finish an upload (complete it, or get a new URL to put its bytes): the user who
 * initiated it, or a caller allowed to change any of the tenant's objects. `stored_object:CREATE`
 * alone is not enough: it lets anyone start uploads, and a complete with a wrong checksum deletes
 * the object, so a stranger's complete would destroy someone else's upload.
 */
export const UPDATE_ANY_OBJECT_PERMISSION = "stored_object:UPDATE";

export interface UploadCaller {
  actorId: string;
  /** Holds UPDATE_ANY_OBJECT_PERMISSION. */
  mayUpdateAnyObject: boolean;
}

/** `initiatorId` as the object's first upload session stored it; undefined when none is stored. */
export function mayFinishUpload(initiatorId: string | undefined, caller: UploadCaller): boolean {
  return caller.mayUpdateAnyObject || (initiatorId !== undefined && initiatorId === caller.actorId);
}
