// Hand profiling load: SIZE=small|large N=count C=concurrency, against API_URL.
import { apiFor, runPool } from "../bench/support.js";
import { uploadThrough } from "../bench/uploads.js";
import { payloadOf } from "../bench/uploads-peers/engines.js";

const payload = payloadOf((process.env.SIZE ?? "small") as "small" | "large");
const api = await apiFor(process.env.API_URL ?? "http://127.0.0.1:8080", "prof");
const n = Number(process.env.N ?? 200), c = Number(process.env.C ?? 16);
const spec = (i: number) => ({ bytes: payload.bytes, contentType: payload.contentType, filename: payload.filename, objectClass: "GENERAL_DOCUMENT", ownerEntityId: `p-${i}` }) as never;
await runPool(4, 4, (i) => uploadThrough(api, spec(i))); // warm
const t0 = performance.now();
let bad = 0;
await runPool(n, c, async (i) => { const o = await uploadThrough(api, spec(i + 10)); if ((o as { status: string }).status !== "READY") bad++; });
const s = (performance.now() - t0) / 1000;
console.log(`${n} uploads in ${s.toFixed(1)} s: ${(n / s).toFixed(1)}/s, not READY ${bad}`);
