/**
 * Save-time check of a formula: mathjs parses it, then every node is matched against an
 * allow-list and translated into our own tree (formula-ast.ts). Anything not listed (assignment,
 * function definition, objects, matrices, ranges, blocks, bracket indexing, unknown functions,
 * prototype names) is refused with INVALID_FORMULA naming the offending part.
 */
import { parse } from "mathjs";
import { AppError } from "../errors.js";
import {
  BINARY_OPERATORS,
  FUNCTION_ARITY,
  isFunctionName,
  UNARY_OPERATORS,
  type Expr,
} from "./formula-ast.js";
import { isForbiddenKey } from "./safe-keys.js";

export const MAX_FORMULA_LENGTH = 1000;
export const MAX_FORMULA_DEPTH = 32;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The parts of a mathjs node we read; mathjs's own typings differ per node class. */
interface RawNode {
  type: string;
  value?: unknown;
  name?: string;
  op?: string;
  fn?: unknown;
  args?: RawNode[];
  implicit?: boolean;
  condition?: RawNode;
  trueExpr?: RawNode;
  falseExpr?: RawNode;
  content?: RawNode;
  object?: RawNode;
  index?: RawNode;
  dimensions?: RawNode[];
  dotNotation?: boolean;
  toString(): string;
}

/** Parses and checks; returns the translated tree or throws AppError('INVALID_FORMULA'). */
export function checkFormula(source: string): Expr {
  if (typeof source !== "string" || source.trim().length === 0) throw invalid("formula is empty");
  if (source.length > MAX_FORMULA_LENGTH) {
    throw invalid(`formula is ${source.length} characters long; at most ${MAX_FORMULA_LENGTH} are allowed`);
  }
  // Refusing deep bracket nesting before parsing keeps mathjs's recursive parser off deep stacks.
  if (bracketDepth(source) > MAX_FORMULA_DEPTH) throw tooDeep();
  return translate(parseSource(source), 1);
}

function parseSource(source: string): RawNode {
  try {
    return parse(source) as unknown as RawNode;
  } catch (error) {
    const detail = error instanceof Error ? error.message : "unparsable";
    throw invalid(`formula does not parse: ${detail}`, error);
  }
}

function translate(node: RawNode, depth: number): Expr {
  if (depth > MAX_FORMULA_DEPTH) throw tooDeep();
  switch (node.type) {
    case "ConstantNode":
      return constant(node);
    case "SymbolNode":
      return { kind: "field", name: identifier(node.name, node) };
    case "ParenthesisNode":
      return translate(node.content as RawNode, depth + 1);
    case "OperatorNode":
      return operator(node, depth);
    case "ConditionalNode":
      return {
        kind: "conditional",
        test: translate(node.condition as RawNode, depth + 1),
        then: translate(node.trueExpr as RawNode, depth + 1),
        otherwise: translate(node.falseExpr as RawNode, depth + 1),
      };
    case "FunctionNode":
      return call(node, depth);
    case "AccessorNode":
      return path(node, depth);
    default:
      throw invalid(`${describeNodeType(node.type)} is not allowed (at "${snippet(node)}")`);
  }
}

function constant(node: RawNode): Expr {
  const value = node.value;
  if (typeof value === "string" || typeof value === "boolean") return { kind: "constant", value };
  if (typeof value === "number" && Number.isFinite(value)) return { kind: "constant", value };
  throw invalid(`only finite numbers, strings and booleans are allowed as constants (at "${snippet(node)}")`);
}

function operator(node: RawNode, depth: number): Expr {
  const fn = String(node.fn);
  const args = node.args ?? [];
  if (node.implicit) throw invalid(`implicit multiplication is not allowed; write "*" (at "${snippet(node)}")`);
  const binary = Object.hasOwn(BINARY_OPERATORS, fn) ? BINARY_OPERATORS[fn] : undefined;
  if (binary && args.length === 2) {
    return {
      kind: "binary",
      op: binary,
      left: translate(args[0], depth + 1),
      right: translate(args[1], depth + 1),
    };
  }
  const unary = Object.hasOwn(UNARY_OPERATORS, fn) ? UNARY_OPERATORS[fn] : undefined;
  if (unary && args.length === 1) return { kind: "unary", op: unary, arg: translate(args[0], depth + 1) };
  throw invalid(`operator "${node.op}" is not allowed (at "${snippet(node)}")`);
}

function call(node: RawNode, depth: number): Expr {
  const fn = node.fn as RawNode;
  const name = fn.type === "SymbolNode" ? String(fn.name) : fn.toString();
  if (fn.type !== "SymbolNode" || !isFunctionName(name)) {
    throw invalid(`"${name}" is not an allowed function (at "${snippet(node)}")`);
  }
  const args = node.args ?? [];
  const [min, max] = FUNCTION_ARITY[name];
  if (args.length < min || args.length > max) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw invalid(`${name}() takes ${expected} argument(s), got ${args.length} (at "${snippet(node)}")`);
  }
  return { kind: "call", name, args: args.map((arg) => translate(arg, depth + 1)) };
}

/** Only `root.a.b` dot notation; `root["a"]`, `root[1]` and computed indexes are refused. */
function path(node: RawNode, depth: number): Expr {
  const segments: string[] = [];
  let current: RawNode = node;
  let level = depth;
  while (current.type === "AccessorNode") {
    if (level > MAX_FORMULA_DEPTH) throw tooDeep();
    segments.unshift(dotSegment(current));
    current = current.object as RawNode;
    level += 1;
  }
  if (current.type !== "SymbolNode") {
    throw invalid(`property access is only allowed on a context or field name (at "${snippet(node)}")`);
  }
  return { kind: "path", root: identifier(current.name, current), segments };
}

function dotSegment(node: RawNode): string {
  const index = node.index as RawNode;
  const dims = index.dimensions ?? [];
  const only = dims[0];
  if (!index.dotNotation || dims.length !== 1 || only.type !== "ConstantNode" || typeof only.value !== "string") {
    throw invalid(`only dotted paths like entity.amount are allowed, not brackets (at "${snippet(node)}")`);
  }
  return identifier(only.value, node);
}

function identifier(name: unknown, node: RawNode): string {
  const text = String(name);
  if (isForbiddenKey(text)) throw invalid(`"${text}" may not be referenced (at "${snippet(node)}")`);
  if (!IDENTIFIER.test(text)) throw invalid(`"${text}" is not a valid name (at "${snippet(node)}")`);
  return text;
}

/** Deepest nesting of (, [ and { outside string literals. */
function bracketDepth(source: string): number {
  let depth = 0;
  let deepest = 0;
  let quote: string | undefined;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "(" || ch === "[" || ch === "{") deepest = Math.max(deepest, ++depth);
    else if (ch === ")" || ch === "]" || ch === "}") depth--;
  }
  return deepest;
}

const NODE_NAMES: Record<string, string> = {
  AssignmentNode: "assignment",
  FunctionAssignmentNode: "function definition",
  ObjectNode: "an object literal",
  ArrayNode: "a matrix or array",
  IndexNode: "indexing",
  RangeNode: "a range",
  BlockNode: "more than one statement",
  RelationalNode: "a chained comparison",
};

function describeNodeType(type: string): string {
  return Object.hasOwn(NODE_NAMES, type) ? NODE_NAMES[type] : `"${type}"`;
}

function snippet(node: RawNode): string {
  let text: string;
  try {
    text = node.toString();
  } catch {
    text = node.type;
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function tooDeep(): AppError {
  return invalid(`formula is nested more than ${MAX_FORMULA_DEPTH} levels deep`);
}

function invalid(message: string, cause?: unknown): AppError {
  return new AppError("INVALID_FORMULA", `formula: ${message}`, cause === undefined ? {} : { cause });
}
