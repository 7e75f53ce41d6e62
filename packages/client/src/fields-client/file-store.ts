/**
 * The Node store: every entry in one JSON file, written to a temporary file and renamed over the
 * old one so a crash mid-write never leaves half a file. The only file of the package that
 * imports Node built-ins; browsers use indexeddb-store.ts.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { FieldsStore, StoredDocument } from "./store.js";

export function fileStore(path: string): FieldsStore {
  // Writes one after another: two concurrent puts would otherwise race on the temporary file.
  let writing: Promise<unknown> = Promise.resolve();
  return {
    async get(key) {
      return (await readAll(path))[key];
    },
    put(key, value) {
      const next = writing.then(async () => {
        const all = await readAll(path);
        all[key] = value;
        await mkdir(dirname(path), { recursive: true });
        const temporary = `${path}.${process.pid}.tmp`;
        await writeFile(temporary, JSON.stringify(all));
        await rename(temporary, path);
      });
      writing = next.catch(() => undefined);
      return next;
    },
  };
}

/** No file yet is an empty store; a file that is not ours is an error, not silently replaced. */
async function readAll(path: string): Promise<Record<string, StoredDocument>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return Object.create(null) as Record<string, StoredDocument>;
    throw error;
  }
  return Object.assign(Object.create(null) as Record<string, StoredDocument>, JSON.parse(text) as Record<string, StoredDocument>);
}
