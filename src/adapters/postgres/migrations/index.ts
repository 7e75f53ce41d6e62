import { InitialSchema } from "./0001-initial-schema.js";
import { Webhooks } from "./0002-webhooks.js";

/** Listed explicitly: no file discovery at run time, the same list in dev, tests and production. */
export const migrations = [
  { name: "0001-initial-schema", class: InitialSchema },
  { name: "0002-webhooks", class: Webhooks },
];
