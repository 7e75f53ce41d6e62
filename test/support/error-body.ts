import { fromBinary } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { BadRequestSchema, ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";

type ErrorBody = { details?: { type: string; value: string }[] };

/** The stable reason of a Connect JSON error body (its google.rpc.ErrorInfo detail). */
export function reasonOf(body: ErrorBody): string | undefined {
  const detail = body.details?.find((d) => d.type === "google.rpc.ErrorInfo");
  return detail && fromBinary(ErrorInfoSchema, base64Decode(detail.value)).reason;
}

/** The fields of the google.rpc.BadRequest violations of a Connect JSON error body. */
export function violationsOf(body: ErrorBody): string[] {
  const detail = body.details?.find((d) => d.type === "google.rpc.BadRequest");
  return detail ? fromBinary(BadRequestSchema, base64Decode(detail.value)).fieldViolations.map((v) => v.field) : [];
}
