/** A one-line summary of a PostgreSQL EXPLAIN (FORMAT JSON) plan: node types and indexes, top down. */
export interface Plan {
  Plan: PlanNode;
}

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Scan Direction"?: string;
  Plans?: PlanNode[];
}

export function planSummary(plans: Plan[]): string {
  const parts: string[] = [];
  const visit = (node: PlanNode) => {
    const direction = node["Scan Direction"] === "Backward" ? " Backward" : "";
    parts.push(node["Index Name"] ? `${node["Node Type"]}${direction} (${node["Index Name"]})` : node["Node Type"]);
    node.Plans?.forEach(visit);
  };
  plans.forEach((plan) => visit(plan.Plan));
  return parts.join(" > ");
}
