import net from "node:net";
import { spawn } from "node:child_process";
import { create, toBinary } from "@bufbuild/protobuf";
import { ServerCompatRequestSchema } from "../.conformance/gen/connectrpc/conformance/v1/server_compat_pb.js";

const child = spawn(process.execPath, ["--import", "tsx", "test/conformance/server.ts"], { stdio: ["pipe", "pipe", "inherit"] });
const req = toBinary(ServerCompatRequestSchema, create(ServerCompatRequestSchema, { messageReceiveLimit: 1024 }));
const size = Buffer.alloc(4); size.writeUInt32BE(req.byteLength);
child.stdin.write(Buffer.concat([size, req]));
const out: Buffer = await new Promise((r) => child.stdout.once("data", r));
// ServerCompatResponse: host (1), port (2) varint; parse port crudely
const port = (() => { const b = out.subarray(4); let i = 0; while (i < b.length) { const tag = b[i++]; if (tag === 0x0a) { const l = b[i++]; i += l; } else if (tag === 0x10) { let v = 0, s = 0, x; do { x = b[i++]; v |= (x & 0x7f) << s; s += 7; } while (x & 0x80); return v; } } throw new Error("no port"); })();

function envelope(n: number) { const e = Buffer.alloc(5 + n); e.writeUInt32BE(n, 1); return e; }
const total = Number(process.env.BIG ?? 300_000);
async function once(i: number) {
  return new Promise<string>((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    const body = Buffer.concat([envelope(0), envelope(total)]);
    let got = "";
    s.on("data", (d) => (got += d.toString("latin1")));
    s.on("error", (e) => resolve(`error ${(e as NodeJS.ErrnoException).code} got=${JSON.stringify(got.split("\r\n")[0])}`));
    s.on("close", () => resolve(`close got=${JSON.stringify(got.split("\r\n")[0])} len=${got.length}`));
    s.write(`POST /connectrpc.conformance.v1.ConformanceService/ClientStream HTTP/1.1\r\nhost: x\r\ncontent-type: application/connect+proto\r\ncontent-length: ${body.length}\r\n\r\n`);
    let off = 0;
    const pump = () => { while (off < body.length) { const ok = s.write(body.subarray(off, off + 16384)); off += 16384; if (!ok) { s.once("drain", pump); return; } } s.end(); };
    pump();
    setTimeout(() => { resolve(`timeout got=${JSON.stringify(got.split("\r\n")[0])} len=${got.length}`); s.destroy(); }, 3000);
  });
}
const counts = new Map<string, number>();
for (let i = 0; i < Number(process.env.N ?? 50); i++) { const r = (await once(i)).replace(/len=\d+/, "len"); counts.set(r, (counts.get(r) ?? 0) + 1); }
console.log(counts);
child.kill("SIGTERM");
