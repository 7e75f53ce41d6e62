/**
 * Whether the front door gives every error of the mounted services a google.rpc.ErrorInfo.
 *
 * On for the product API (src/main/api.ts): every error of our API carries an ErrorInfo with a
 * stable reason (docs/clients.md, "Protocols on the one port"), also the errors the runtime
 * raises before any handler (unknown method, malformed or over-size body) and the front door's
 * own refusals; an error that carries details of its own keeps exactly those.
 *
 * Off for a service whose contract defines each error to the detail, which the front door must
 * then leave as its thrower made it: the Connect conformance suite's ConformanceService
 * (test/conformance/server.ts), whose cases expect errors with no details bare. Everything else
 * (listener, protocol detection, interceptors, codes, messages, metadata, limits, timeouts) is
 * the same either way.
 */
export interface FrontDoorErrorOptions {
  fillErrorInfo: boolean;
}

/** The product API's choice, for mounts that do not say otherwise. */
export const PRODUCT_ERRORS: FrontDoorErrorOptions = { fillErrorInfo: true };
