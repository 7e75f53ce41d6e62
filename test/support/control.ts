import { inject } from "vitest";

/** Kills, starts, pauses (SIGSTOP) or resumes the API server or the worker; stops or starts a dependency of the stack. */
export async function control(
  name: "api" | "worker" | "postgres" | "minio" | "temporal" | "clamd",
  action: "kill" | "term" | "start" | "stop" | "pause" | "resume",
): Promise<void> {
  const res = await fetch(`${inject("controlUrl")}/${name}/${action}`, { method: "POST" });
  if (!res.ok) throw new Error(`control ${name}/${action} failed: ${await res.text()}`);
}
