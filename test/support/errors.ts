import { fromBinary } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { Code, ConnectError } from "@connectrpc/connect";
import { BadRequestSchema, ErrorInfoSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";

/** A Connect JSON error body, as the REST API and the Connect protocol answer it. */
type ErrorBody = { code?: string; details?: { type: string; value: string }[] };

/** A failure as a test holds it: the JSON body of a REST answer, or what a typed client threw. */
type Failure = ErrorBody | ConnectError | Error | undefined;

function detailOf<T>(failure: Failure, schema: typeof ErrorInfoSchema | typeof BadRequestSchema): T | undefined {
  if (failure instanceof Error) return ConnectError.from(failure).findDetails(schema)[0] as T | undefined;
  const detail = failure?.details?.find((d) => d.type === schema.typeName);
  return detail && (fromBinary(schema, base64Decode(detail.value)) as T);
}

/** The stable reason of a failure (its google.rpc.ErrorInfo detail): the one way tests read it. */
export function reasonOf(failure: Failure): string | undefined {
  return detailOf<{ reason: string }>(failure, ErrorInfoSchema)?.reason;
}

/** The fields named by the google.rpc.BadRequest violations of a failure. */
export function violationsOf(failure: Failure): string[] {
  return detailOf<{ fieldViolations: { field: string }[] }>(failure, BadRequestSchema)?.fieldViolations.map((v) => v.field) ?? [];
}

/** The ConnectError a call rejected with; fails the test when the call succeeded. */
export async function failureOf(call: Promise<unknown>): Promise<ConnectError> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected the call to fail, it answered ${JSON.stringify(outcome.value, (_k, v) => (typeof v === "bigint" ? String(v) : v))}`);
  return ConnectError.from(outcome.error);
}

/** Code, reason and violated fields of a typed client's failure, for one `toMatchObject`. */
export async function refusalOf(call: Promise<unknown>): Promise<{ code: string; reason?: string; fields: string[] }> {
  const error = await failureOf(call);
  return { code: Code[error.code], reason: reasonOf(error), fields: violationsOf(error) };
}
