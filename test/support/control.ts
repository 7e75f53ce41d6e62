import { inject } from "vitest";

/** Kills or starts the API server or the worker of the suite's stack. */
export async function control(name: "api" | "worker", action: "kill" | "start"): Promise<void> {
  const res = await fetch(`${inject("controlUrl")}/${name}/${action}`, { method: "POST" });
  if (!res.ok) throw new Error(`control ${name}/${action} failed: ${await res.text()}`);
}
