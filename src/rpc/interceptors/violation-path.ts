import type { Path } from "@bufbuild/protobuf/reflect";

/** A violation's field as the JSON API spells it: `storedObject.ownerEntityId`, `rules[2]`. */
export function jsonPath(path: Path): string {
  let out = "";
  for (const item of path) {
    if (item.kind === "list_sub") out += `[${item.index}]`;
    else if (item.kind === "map_sub") out += `[${JSON.stringify(String(item.key))}]`;
    else if (item.kind === "field") out += (out ? "." : "") + item.jsonName;
    else out += (out ? "." : "") + item.name;
  }
  return out || "(message)";
}
