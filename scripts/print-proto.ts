/**
 * Prints the declarations of a FileDescriptorProto back as .proto source: messages, fields,
 * oneofs, enums, extension ranges and extensions. Options are left out on purpose (see
 * proto-deps.ts): the printed file exists only so that buf can compile options that use it.
 */
import { isFieldSet } from "@bufbuild/protobuf";
import {
  type DescriptorProto,
  FieldDescriptorProtoSchema,
  type EnumDescriptorProto,
  type FieldDescriptorProto,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";

const scalarNames: Partial<Record<Type, string>> = {
  [Type.DOUBLE]: "double", [Type.FLOAT]: "float", [Type.INT64]: "int64", [Type.UINT64]: "uint64",
  [Type.INT32]: "int32", [Type.FIXED64]: "fixed64", [Type.FIXED32]: "fixed32", [Type.BOOL]: "bool",
  [Type.STRING]: "string", [Type.BYTES]: "bytes", [Type.UINT32]: "uint32", [Type.SFIXED32]: "sfixed32",
  [Type.SFIXED64]: "sfixed64", [Type.SINT32]: "sint32", [Type.SINT64]: "sint64",
};

function typeName(field: FieldDescriptorProto): string {
  return scalarNames[field.type] ?? field.typeName;
}

function label(field: FieldDescriptorProto, syntax: string): string {
  if (field.label === Label.REPEATED) return "repeated ";
  if (field.label === Label.REQUIRED) return "required ";
  return syntax === "proto2" || field.proto3Optional ? "optional " : "";
}

function printField(field: FieldDescriptorProto, syntax: string, indent: string, inOneof: boolean): string {
  const prefix = inOneof ? "" : label(field, syntax);
  return `${indent}${prefix}${typeName(field)} ${field.name} = ${field.number};\n`;
}

/** oneof_index is a proto2 optional field: unset reads as 0, so presence must be asked. */
function oneofIndexOf(field: FieldDescriptorProto): number | undefined {
  if (field.proto3Optional || !isFieldSet(field, FieldDescriptorProtoSchema.field.oneofIndex)) return undefined;
  return field.oneofIndex;
}

function printEnum(e: EnumDescriptorProto, indent: string): string {
  const values = e.value.map((v) => `${indent}  ${v.name} = ${v.number};\n`).join("");
  return `${indent}enum ${e.name} {\n${values}${indent}}\n`;
}

function printMessage(m: DescriptorProto, syntax: string, indent: string): string {
  const inner = indent + "  ";
  let body = "";
  for (const nested of m.nestedType) body += printMessage(nested, syntax, inner);
  for (const e of m.enumType) body += printEnum(e, inner);
  m.field.forEach((field) => {
    if (oneofIndexOf(field) !== undefined) return;
    body += printField(field, syntax, inner, false);
  });
  m.oneofDecl.forEach((oneof, index) => {
    const members = m.field.filter((f) => oneofIndexOf(f) === index);
    if (members.length === 0) return;
    body += `${inner}oneof ${oneof.name} {\n`;
    for (const f of members) body += printField(f, syntax, inner + "  ", true);
    body += `${inner}}\n`;
  });
  for (const range of m.extensionRange) {
    const end = range.end >= 536870912 ? "max" : String(range.end - 1);
    body += `${inner}extensions ${range.start} to ${end};\n`;
  }
  body += printExtensions(m.extension, syntax, inner);
  return `${indent}message ${m.name} {\n${body}${indent}}\n`;
}

function printExtensions(extensions: FieldDescriptorProto[], syntax: string, indent: string): string {
  let out = "";
  for (const ext of extensions) {
    out += `${indent}extend ${ext.extendee} {\n${printField(ext, syntax, indent + "  ", false)}${indent}}\n`;
  }
  return out;
}

export function printProtoDeclarations(file: FileDescriptorProto): string {
  const syntax = file.syntax === "" ? "proto2" : file.syntax;
  if (syntax === "editions") throw new Error(`${file.name}: editions files are not supported by this printer`);
  let out = `// Declarations of ${file.name}, printed from the descriptor of its npm package.\n`;
  out += `syntax = "${syntax}";\npackage ${file.package};\n`;
  for (const dep of file.dependency) out += `import "${dep}";\n`;
  for (const e of file.enumType) out += printEnum(e, "");
  for (const m of file.messageType) out += printMessage(m, syntax, "");
  out += printExtensions(file.extension, syntax, "");
  return out;
}
