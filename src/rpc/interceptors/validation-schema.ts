/**
 * The contract as protovalidate sees it: the same descriptors without the `*.bounds` CEL rules
 * that the size pre-check (size-bounds.ts) evaluates exactly. protovalidate's CEL converts a whole
 * Struct at every `this` it reads, so a Struct within its bounds whose values are large objects
 * held the event loop for seconds; the pre-check reads it only as far as the bounds go. A rule
 * the pre-check does not recognise stays here, so a rule is always evaluated by one of the two.
 */
import { clone, create, createFileRegistry, getOption, setExtension, type DescField, type DescFile, type DescMessage, type FileRegistry } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, FileDescriptorSetSchema, type DescriptorProto, type FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { field as fieldRulesOption, FieldRulesSchema, type FieldRules, type Rule } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { jsonSizeRule } from "./json-size-rules.js";

/** `rules` without the ones the pre-check evaluates, or undefined when it keeps them all. */
function withoutJsonSizeRules(field: DescField, rules: FieldRules): FieldRules | undefined {
  const kept = (cel: Rule[]) => cel.filter((rule) => jsonSizeRule(field, rule) === undefined);
  const stripped = clone(FieldRulesSchema, rules);
  let changed = false;
  const strip = (holder: { cel: Rule[] } | undefined) => {
    if (holder === undefined) return;
    const cel = kept(holder.cel);
    changed ||= cel.length !== holder.cel.length;
    holder.cel = cel;
  };
  strip(stripped);
  if (stripped.type.case === "repeated") strip(stripped.type.value.items);
  if (stripped.type.case === "map") strip(stripped.type.value.values);
  return changed ? stripped : undefined;
}

function stripMessage(message: DescMessage, proto: DescriptorProto): void {
  for (const field of message.fields) {
    const rules = withoutJsonSizeRules(field, getOption(field, fieldRulesOption));
    const fieldProto = proto.field.find((f) => f.number === field.number);
    if (rules !== undefined && fieldProto?.options !== undefined) setExtension(fieldProto.options, fieldRulesOption, rules);
  }
  for (const nested of message.nestedMessages) {
    const nestedProto = proto.nestedType.find((p) => p.name === nested.name);
    if (nestedProto !== undefined) stripMessage(nested, nestedProto);
  }
}

function strippedFile(file: DescFile): FileDescriptorProto {
  const proto = clone(FileDescriptorProtoSchema, file.proto);
  for (const message of file.messages) {
    const messageProto = proto.messageType.find((p) => p.name === message.name);
    if (messageProto !== undefined) stripMessage(message, messageProto);
  }
  return proto;
}

/** `file` and the files it imports, each once, every file after its imports. */
function inImportOrder(file: DescFile, into: Map<string, DescFile> = new Map()): Map<string, DescFile> {
  if (!into.has(file.proto.name)) {
    for (const dependency of file.dependencies) inImportOrder(dependency, into);
    into.set(file.proto.name, file);
  }
  return into;
}

/** Maps a request type to its twin without the pre-checked rules, building each file once. */
export function validationSchemas(): (schema: DescMessage) => DescMessage {
  const twins = new Map<DescMessage, DescMessage>();
  const stripped = new Map<string, FileDescriptorProto>();
  const registries = new Map<string, FileRegistry>();
  const registryOf = (file: DescFile) => {
    let registry = registries.get(file.proto.name);
    if (registry === undefined) {
      const files = [...inImportOrder(file)].map(([name, each]) => {
        if (!stripped.has(name)) stripped.set(name, strippedFile(each));
        return stripped.get(name)!;
      });
      registry = createFileRegistry(create(FileDescriptorSetSchema, { file: files }));
      registries.set(file.proto.name, registry);
    }
    return registry;
  };
  return (schema) => {
    let twin = twins.get(schema);
    if (twin === undefined) {
      twin = registryOf(schema.file).getMessage(schema.typeName) ?? schema;
      twins.set(schema, twin);
    }
    return twin;
  };
}
