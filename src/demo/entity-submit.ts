/**
 * One create through the API, with its outcome in the form's terms: created, refused by the
 * server (its reason and a violation per field), or not sent because the server could not be
 * reached, which is what puts a submit in the queue.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { BadRequestSchema, ErrorInfoSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";
import type { ApiClients } from "@files-and-fields/client/browser";
import type { CreatedEntity, EntityKind } from "./entity-kinds.js";

export interface SubmitViolation {
  /** The form's field key: `name` for a standard field, `credit` for `customFields.credit`. */
  field: string;
  description: string;
}

export type SubmitOutcome =
  | { kind: "created"; entity: CreatedEntity }
  | { kind: "refused"; reason: string; message: string; violations: SubmitViolation[] }
  | { kind: "unreachable"; message: string };

export async function submitEntity(
  kind: EntityKind,
  clients: ApiClients,
  standard: Readonly<Record<string, string>>,
  customFields: JsonObject,
): Promise<SubmitOutcome> {
  try {
    return { kind: "created", entity: await kind.create(clients, standard, customFields) };
  } catch (thrown) {
    const error = ConnectError.from(thrown);
    if (isUnreachable(error)) return { kind: "unreachable", message: error.rawMessage };
    const reason = error.findDetails(ErrorInfoSchema)[0]?.reason ?? Code[error.code];
    const violations = (error.findDetails(BadRequestSchema)[0]?.fieldViolations ?? []).map((v) => ({
      field: v.field.replace(/^customFields\./, ""),
      description: v.description,
    }));
    return { kind: "refused", reason, message: error.rawMessage, violations };
  }
}

/**
 * fetch rejects with a TypeError when no answer came (offline, connection refused), which
 * Connect wraps with code unknown; `unavailable` is also what a proxy's 502/503/504 becomes.
 */
function isUnreachable(error: ConnectError): boolean {
  return !navigator.onLine || error.cause instanceof TypeError || error.code === Code.Unavailable;
}
