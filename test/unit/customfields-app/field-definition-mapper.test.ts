import { create, toJson } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { UpdateFieldDefinitionRequestSchema } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { FieldDefinitionSchema } from "@files-and-fields/client/gen/customfields/v1/types_pb.js";
import { toDefinitionMessage, updateInput } from "../../../src/rpc/handlers/field-definition-mapper.js";
import { AppError } from "../../../src/domain/errors.js";
import { def } from "../customfields/fixtures.js";

const request = (init: Parameters<typeof create<typeof UpdateFieldDefinitionRequestSchema>>[1]) =>
  create(UpdateFieldDefinitionRequestSchema, { id: "d1", ...init });

describe("updateInput", () => {
  it("without a mask, gives exactly the fields the request sets", () => {
    const input = updateInput(request({ fieldLabel: "Tier", isRequired: false, expectedVersion: 3 }));
    expect(input.fields).toEqual({ fieldLabel: "Tier", isRequired: false });
    expect(input.expectedVersion).toBe(3);
  });

  it("with a mask, gives the masked fields only, clearing or resetting those left unset", () => {
    const input = updateInput(
      request({
        fieldLabel: "ignored: not in the mask",
        updateMask: create(FieldMaskSchema, { paths: ["description", "validation", "is_active", "display_order", "expected_version"] }),
        displayOrder: 4,
      }),
    );
    expect(input.fields).toEqual({ description: undefined, validation: {}, isActive: true, displayOrder: 4 });
    expect(Object.hasOwn(input.fields, "description")).toBe(true);
  });

  it("passes entityType and fieldKey on for the immutability check, never as fields to write", () => {
    const input = updateInput(request({ fieldKey: "other", updateMask: create(FieldMaskSchema, { paths: ["field_key"] }) }));
    expect(input.fieldKey).toBe("other");
    expect(input.fields).toEqual({});
  });

  it("refuses a mask path that names no updatable field", () => {
    expect(() => updateInput(request({ updateMask: create(FieldMaskSchema, { paths: ["version"] }) }))).toThrow(AppError);
  });
});

describe("toDefinitionMessage", () => {
  it("answers enums in kebab-case and rule outcomes under then/else", () => {
    const json = toJson(
      FieldDefinitionSchema,
      toDefinitionMessage(
        def("tier", {
          fieldType: "SELECT",
          defaultStrategy: "RULE_BASED",
          defaultRules: [{ name: "vip", priority: 1, when: { operator: "AND", conditions: [{ field: "entity.name", operator: "in", value: ["a", 1] }] }, then: { defaultValue: "gold" } }],
        }),
      ),
    ) as Record<string, any>;
    expect(json.fieldType).toBe("select");
    expect(json.defaultStrategy).toBe("rule-based");
    expect(json.defaultRules[0].then.defaultValue).toBe("gold");
    expect(json.defaultRules[0].when.conditions[0].value).toEqual(["a", 1]);
  });
});
