/** `@files-and-fields/client/uppy`: options for Uppy 6's AwsS3 plugin that upload through this API (docs/uppy.md). */
export {
  uppyAwsS3Options,
  uppyOperation,
  type UppyAwsS3Config,
  type UppyAwsS3Options,
  type UppyFileFields,
  type UppyOperation,
  type UppyPresignableRequest,
  type UppyPresignedResponse,
  type UppyUploadTarget,
} from "./aws-s3-options.js";
