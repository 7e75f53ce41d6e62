/** The test stack's Temporal UI, as an operator opens it: the browser tests' screenshots of it. */
import type { Page } from "playwright-core";
import { expect, inject } from "vitest";

function temporalUiUrl(): string {
  const url = inject("stackEnv").TEMPORAL_UI_URL;
  expect(url, "the test stack has no TEMPORAL_UI_URL").toBeTruthy();
  return url!;
}

/** The workflow list for a visibility query (`TenantId = "…" AND ObjectStatus = "…"`). */
export async function openWorkflowList(page: Page, query: string): Promise<void> {
  await page.goto(`${temporalUiUrl()}/namespaces/default/workflows?query=${encodeURIComponent(query)}`);
}

/** One run's event history. */
export async function openWorkflowHistory(page: Page, workflowId: string, runId: string): Promise<void> {
  await page.goto(`${temporalUiUrl()}/namespaces/default/workflows/${encodeURIComponent(workflowId)}/${runId}/history`);
}
