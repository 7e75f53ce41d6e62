import { getOption, hasOption, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { http } from "@files-and-fields/client/gen/google/api/annotations_pb.js";

/**
 * The REST routes of the JSON API, derived from the `google.api.http` annotations of the
 * contract, so that no route is written by hand.
 */
export interface HttpRoute {
  httpMethod: string;
  template: string;
  segments: PathSegment[];
  /** The AIP-136 custom verb after the last ':' (e.g. "resolve"), if any. */
  verb?: string;
  /** "*" for the whole message, a field name, or "" when the request has no body. */
  body: string;
  method: DescMethod;
}

type PathSegment = { literal: string } | { variable: string };

function patternOf(rule: ReturnType<typeof getOption<never, never>> | any): [string, string] | undefined {
  const pattern = rule.pattern;
  if (pattern.case === undefined) return undefined;
  if (pattern.case === "custom") return [pattern.value.kind.toUpperCase(), pattern.value.path];
  return [pattern.case.toUpperCase(), pattern.value as string];
}

function parseTemplate(template: string): { segments: PathSegment[]; verb?: string } {
  let path = template;
  let verb: string | undefined;
  const lastSlash = path.lastIndexOf("/");
  const colon = path.indexOf(":", lastSlash);
  if (colon >= 0 && !path.slice(colon).includes("}")) {
    verb = path.slice(colon + 1);
    path = path.slice(0, colon);
  }
  const segments = path
    .split("/")
    .filter((s) => s !== "")
    .map((s): PathSegment => {
      const variable = /^\{([a-z_][a-z0-9_]*)\}$/.exec(s);
      return variable ? { variable: variable[1] } : { literal: s };
    });
  return { segments, verb };
}

export function routesOf(services: DescService[]): HttpRoute[] {
  const routes: HttpRoute[] = [];
  for (const service of services) {
    for (const method of service.methods) {
      if (!hasOption(method, http)) continue;
      const rule = getOption(method, http);
      const bindings = [rule, ...rule.additionalBindings];
      for (const binding of bindings) {
        const pattern = patternOf(binding);
        if (!pattern) continue;
        const [httpMethod, template] = pattern;
        routes.push({ httpMethod, template, body: binding.body, method, ...parseTemplate(template) });
      }
    }
  }
  return routes;
}

export interface RouteMatch {
  route: HttpRoute;
  pathParams: Record<string, string>;
}

function matchPath(route: HttpRoute, parts: string[], verb: string | undefined): Record<string, string> | undefined {
  if (parts.length !== route.segments.length || verb !== route.verb) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const segment = route.segments[i];
    if ("literal" in segment) {
      if (segment.literal !== parts[i]) return undefined;
    } else {
      params[segment.variable] = parts[i];
    }
  }
  return params;
}

/** A custom verb counts as a literal: `{entity_type}:sync` wins over `{entity_type}` for "Customer:sync". */
function literalCount(route: HttpRoute): number {
  return route.segments.filter((s) => "literal" in s).length + (route.verb === undefined ? 0 : 1);
}

export type MatchResult =
  | { kind: "match"; match: RouteMatch }
  | { kind: "method_not_allowed"; allow: string[] }
  | { kind: "not_found" };

/** Most literal route first, so `/uploads/initiate` wins over `/uploads/{object_id}`. */
export function matchRoute(routes: HttpRoute[], httpMethod: string, pathname: string): MatchResult {
  let parts: string[];
  try {
    parts = pathname.split("/").filter((s) => s !== "").map(decodeURIComponent);
  } catch {
    return { kind: "not_found" };
  }
  const candidates: RouteMatch[] = [];
  for (const route of routes) {
    const last = parts[parts.length - 1] ?? "";
    const colon = route.verb ? last.lastIndexOf(":") : -1;
    const routeParts = colon >= 0 ? [...parts.slice(0, -1), last.slice(0, colon)] : parts;
    const verb = colon >= 0 ? last.slice(colon + 1) : undefined;
    const pathParams = matchPath(route, routeParts, verb);
    if (pathParams) candidates.push({ route, pathParams });
  }
  if (candidates.length === 0) return { kind: "not_found" };
  const allowed = candidates.filter((c) => c.route.httpMethod === httpMethod);
  if (allowed.length === 0) {
    return { kind: "method_not_allowed", allow: [...new Set(candidates.map((c) => c.route.httpMethod))] };
  }
  allowed.sort((a, b) => literalCount(b.route) - literalCount(a.route));
  return { kind: "match", match: allowed[0] };
}
