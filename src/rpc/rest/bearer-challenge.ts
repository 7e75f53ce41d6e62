import { Code, type ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";

/** The protection space a token is valid in; RFC 6750 lets the server name it. */
const REALM = "files-and-fields";

/**
 * The `WWW-Authenticate` challenge (RFC 6750 section 3) a refused REST call answers with:
 * every 401 names the Bearer scheme, and `invalid_token` only when a bearer token was sent (a
 * request without one, or with another scheme such as Basic, "lacks any authentication
 * information" and gets no error code). A 403 says `insufficient_scope` only for a missing
 * permission (reason PERMISSION_DENIED), not for other refusals that share the code, such as a
 * legal hold: another token would not help those.
 */
export function bearerChallenge(error: ConnectError, authorization: string | undefined): string | undefined {
  if (error.code === Code.Unauthenticated) {
    const sentToken = /^Bearer\s+\S/i.test(authorization ?? "");
    return sentToken ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`;
  }
  if (error.code === Code.PermissionDenied && error.findDetails(ErrorInfoSchema).some((info) => info.reason === "PERMISSION_DENIED")) {
    return `Bearer realm="${REALM}", error="insufficient_scope"`;
  }
  return undefined;
}
