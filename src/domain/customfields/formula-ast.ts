/**
 * The formula language after checking: a small tree of our own. mathjs only parses; every node it
 * produces is translated into one of these shapes or refused, and only this tree is evaluated.
 */

export type BinaryOperator =
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "^"
  | "=="
  | "!="
  | "<"
  | "<="
  | ">"
  | ">="
  | "and"
  | "or"
  | "xor";

export type UnaryOperator = "-" | "+" | "not";

export type Expr =
  | { kind: "constant"; value: number | string | boolean }
  /** A bare name: another custom field's key (or, failing that, a context key such as timestamp). */
  | { kind: "field"; name: string }
  /** A dotted context path such as entity.amount: root plus own-property segments. */
  | { kind: "path"; root: string; segments: string[] }
  | { kind: "unary"; op: UnaryOperator; arg: Expr }
  | { kind: "binary"; op: BinaryOperator; left: Expr; right: Expr }
  | { kind: "conditional"; test: Expr; then: Expr; otherwise: Expr }
  | { kind: "call"; name: FunctionName; args: Expr[] };

/** The built-in functions and how many arguments each takes ([min, max]). */
export const FUNCTION_ARITY = {
  abs: [1, 1],
  round: [1, 2],
  floor: [1, 1],
  ceil: [1, 1],
  min: [1, 100],
  max: [1, 100],
  year: [1, 1],
  month: [1, 1],
  day: [1, 1],
  today: [0, 0],
  now: [0, 0],
  uppercase: [1, 1],
  lowercase: [1, 1],
  number: [1, 1],
  string: [1, 1],
  boolean: [1, 1],
} as const satisfies Record<string, readonly [number, number]>;

export type FunctionName = keyof typeof FUNCTION_ARITY;

export function isFunctionName(name: string): name is FunctionName {
  return Object.hasOwn(FUNCTION_ARITY, name);
}

/** mathjs operator function names admitted, with the operator they stand for. */
export const BINARY_OPERATORS: Readonly<Record<string, BinaryOperator>> = {
  add: "+",
  subtract: "-",
  multiply: "*",
  divide: "/",
  mod: "%",
  pow: "^",
  equal: "==",
  unequal: "!=",
  smaller: "<",
  smallerEq: "<=",
  larger: ">",
  largerEq: ">=",
  and: "and",
  or: "or",
  xor: "xor",
};

export const UNARY_OPERATORS: Readonly<Record<string, UnaryOperator>> = {
  unaryMinus: "-",
  unaryPlus: "+",
  not: "not",
};
