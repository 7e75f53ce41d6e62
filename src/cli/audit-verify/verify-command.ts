import { access } from "node:fs/promises";
import { GENESIS_HASH } from "../../domain/audit/chain/chain-link.js";
import { EXIT, UsageError, type CliContext } from "../context.js";
import type { OptionValues } from "../commands/command.js";
import { keyRingOf, keysFromDocument, keysFromPemFiles, type PublishedKey } from "./signing-keys.js";
import { verdictJson, verdictLine } from "./verdict.js";
import { fileLines } from "./file-lines.js";
import { verifyExport } from "./verify-export.js";

export const VERIFY_OPTIONS = {
  key: { type: "string", multiple: true },
  keys: { type: "string" },
  anchor: { type: "string" },
} as const;

/** --anchor SEQ:HASH: where an incremental archive continues the chain; the genesis otherwise. */
function anchorOf(values: OptionValues): { sequence: number; hash: string } {
  const given = values.anchor;
  if (given === undefined) return { sequence: 0, hash: GENESIS_HASH };
  const match = typeof given === "string" ? /^(\d{1,15}):([0-9a-f]{64})$/.exec(given) : null;
  if (!match) throw new UsageError(`--anchor: expected SEQUENCE:HASH (the last entry of the archive before, its hash in 64 lower-case hex digits), got "${String(given)}"`);
  return { sequence: Number(match[1]), hash: match[2]! };
}

/** The keys given on the command line, else the API's, fetched once (the only call verify makes). */
async function publishedKeys(ctx: CliContext, values: OptionValues): Promise<PublishedKey[]> {
  const pemFiles = (values.key as string[] | undefined) ?? [];
  const document = values.keys as string | undefined;
  if (pemFiles.length > 0 || document) return [...(await keysFromPemFiles(pemFiles)), ...(document ? await keysFromDocument(document) : [])];
  const { keys } = await ctx.clients.audit.listAuditSigningKeys({});
  ctx.err.write(`audit verify: no --key or --keys given; using the ${keys.length} signing key(s) the API lists (${keys.map((k) => k.keyId).join(", ") || "none"})\n`);
  return keys;
}

/**
 * `audit verify FILE`: exit 0 when the export is intact, 1 when it was tampered with (naming the
 * first entry and how), 2 when a line is not an export line. It reads nothing from the server
 * once it has the keys.
 */
export async function runAuditVerify(ctx: CliContext, file: string | undefined, values: OptionValues): Promise<number> {
  if (!file) throw new UsageError("verify needs the export file: audit verify FILE");
  try {
    await access(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file} (${(error as Error).message})`);
  }
  const ring = keyRingOf(await publishedKeys(ctx, values));
  const verdict = await verifyExport(fileLines(file), ring, anchorOf(values));
  if (verdict.kind === "malformed") ctx.err.write(`audit verify: ${file}: ${verdictLine(verdict)}\n`);
  if (ctx.json) ctx.out(JSON.stringify(verdictJson(verdict)));
  else if (verdict.kind !== "malformed") ctx.out(verdictLine(verdict));
  return verdict.kind === "intact" ? EXIT.ok : verdict.kind === "tampered" ? EXIT.failed : EXIT.usage;
}
