/** What readiness answers: shared by the probes (readiness.ts) and the cache in front of them (cached-readiness.ts). */
export interface ReadinessReport {
  ready: boolean;
  dependencies: Record<string, { ok: boolean; error?: string }>;
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
}
