/**
 * The only way the checks see a file's bytes. The storage adapter implements it with ranged
 * reads (S3 GetObject with a Range header), so a check that needs only the head or the tail of a
 * file pays for those bytes and nothing more; a check that needs every byte streams them.
 */
export interface ByteSource {
  /** Actual size of the stored object in bytes. */
  readonly size: number;
  /**
   * Bytes [offset, offset + length). May return fewer bytes at the end of the object.
   * Errors (network, permissions) propagate out of the scan unchanged so the caller can retry.
   */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** Every byte of the object, in order, in chunks of any size. */
  stream(): AsyncIterable<Uint8Array>;
}
