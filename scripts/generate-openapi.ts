/** `npm run openapi` writes openapi/openapi.json from the contract; commit the result. */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generateOpenApi, jsonApiServices, serializeOpenApi } from "../src/rpc/openapi/generate-openapi.js";

const target = path.join(process.cwd(), "openapi", "openapi.json");
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, serializeOpenApi(generateOpenApi(jsonApiServices)));
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
