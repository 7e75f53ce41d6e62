/**
 * The S3 answers Uppy 6 reads, as `data:` URLs. Uppy's AwsS3 plugin sends CreateMultipartUpload,
 * ListParts, CompleteMultipartUpload and AbortMultipartUpload itself, to whatever URL signRequest
 * returns, and parses S3's XML. This API does those steps on the server (InitiateUpload,
 * ListUploadedParts, CompleteUpload, AbortUpload), so the adapter calls it first and hands Uppy a
 * `data:` URL holding the XML S3 would have answered: the request never leaves the browser.
 */

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function xmlAnswer(xml: string): string {
  return `data:application/xml,${encodeURIComponent(xml)}`;
}

/** CreateMultipartUpload's answer: Uppy keeps UploadId and sends it back with every later request. */
export function createdAnswer(uploadId: string): string {
  return xmlAnswer(`<InitiateMultipartUploadResult><UploadId>${escapeXml(uploadId)}</UploadId></InitiateMultipartUploadResult>`);
}

/** ListParts' answer: the parts storage holds, which a resumed Uppy does not send again. */
export function listedPartsAnswer(parts: readonly { partNumber: number; etag: string }[]): string {
  const items = parts.map((part) => `<Part><PartNumber>${part.partNumber}</PartNumber><ETag>${escapeXml(part.etag)}</ETag></Part>`);
  return xmlAnswer(`<ListPartsResult>${items.join("")}</ListPartsResult>`);
}

/** CompleteMultipartUpload's answer: Uppy reports Key (the object id) and Location with upload-success. */
export function completedAnswer(key: string, location: string): string {
  return xmlAnswer(`<CompleteMultipartUploadResult><Location>${escapeXml(location)}</Location><Key>${escapeXml(key)}</Key></CompleteMultipartUploadResult>`);
}

/** AbortMultipartUpload's answer: S3 answers 204 with no body, and so does this. */
export function abortedAnswer(): string {
  return "data:application/xml,";
}
