/** What readiness answers: shared by the probes (readiness.ts) and the cache in front of them (cached-readiness.ts). */
export interface ReadinessReport {
  ready: boolean;
  /** `optional`: reported, but not counted in `ready` (readiness.ts, DependencyProbe). */
  dependencies: Record<string, { ok: boolean; error?: string; optional?: true }>;
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
}
