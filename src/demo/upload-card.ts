import { CANCELLABLE_STATES, type Upload, type UploadStep } from "@files-and-fields/client/browser-uploader";
import { el, errorText, formatBytes } from "./dom.js";

/** One upload as a list item: name, state, progress bar, cancel button, scan result. */
export class UploadCard {
  readonly element: HTMLLIElement;
  private readonly state = el("span", { class: "state" });
  private readonly bar = el("progress", { max: "100", value: "0" });
  private readonly progressText = el("span", { class: "progress-text" });
  private readonly cancel = el("button", { type: "button", class: "danger cancel" }, "Cancel");
  private readonly retry = el("div", { class: "retry" });
  private readonly result = el("div", { class: "result" });

  constructor(private readonly upload: Upload, objectClass: string) {
    this.cancel.addEventListener("click", () => upload.cancel());
    this.element = el(
      "li",
      { class: "upload", "data-filename": upload.filename },
      el("div", { class: "upload-head" }, el("span", { class: "upload-name", title: upload.filename }, upload.filename), el("span", { class: "hint" }, objectClass), this.state, this.cancel),
      el("div", { class: "bar" }, this.bar, this.progressText),
      this.retry,
      this.result,
    );
    this.render();
  }

  showRetry(info: { step: UploadStep; attempt: number; delayMs: number; error: unknown }): void {
    this.retry.textContent = `${info.step} failed (${errorText(info.error)}); attempt ${info.attempt + 1} in ${(info.delayMs / 1000).toFixed(1)} s`;
  }

  render(): void {
    const { state, progress } = this.upload;
    this.element.dataset.state = state;
    this.state.dataset.state = state;
    this.state.textContent = state.toUpperCase();
    this.bar.value = progress.percentage;
    this.progressText.textContent = `${formatBytes(progress.loaded)} / ${formatBytes(progress.total)} (${progress.percentage}%)`;
    // Disabled while scanning (the bytes are stored, the scan runs anyway), gone once ended.
    this.cancel.disabled = !CANCELLABLE_STATES.has(state);
    this.cancel.hidden = this.upload.finished;
    if (this.upload.finished || state === "scanning") this.retry.textContent = "";
    this.result.replaceChildren(...this.resultLines());
  }

  private resultLines(): Node[] {
    const { state, object, error } = this.upload;
    if (state === "scanning") return [el("span", {}, "Uploaded; the server is scanning the bytes…")];
    if (state === "cancelled") return [el("span", {}, "Cancelled. The pending object is cleaned up after 24 h.")];
    if (state === "error" && error) return [el("span", { class: "failed" }, errorText(error))];
    const checks = object?.scanResult?.checks ?? [];
    if (state === "ready") return [el("span", { class: "passed" }, `All ${checks.length} checks passed.`)];
    if (state !== "rejected") return [];
    const failed = checks.filter((check) => !check.passed);
    return [
      el("span", { class: "failed" }, "Rejected by the scan:"),
      el("ul", {}, ...failed.map((check) => el("li", { class: "failed" }, `${check.name}: ${check.reason} — ${check.message}`))),
    ];
  }
}
