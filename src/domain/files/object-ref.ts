/** Names one stored object: what the lifecycle steps, the sweep and the object's workflow pass around. */
export interface ObjectRef {
  tenantId: string;
  objectId: string;
}
