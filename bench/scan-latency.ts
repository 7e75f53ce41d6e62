/**
 * 3. complete-to-READY: the time of CompleteUpload with waitForResult (verify, scan, finish in the
 * worker) until it answers READY, against the specification's expected 1-3 s.
 * 4. Bytes read from storage per scan of large files, against the file size (a full read).
 */
import type { BenchGroup } from "./context.js";
import { baseline, figure, type Figure } from "./figure.js";
import { fileOfSize, largeJpeg, largePdf, photoPng } from "./scan-files.js";
import { percentile, timed } from "./stats.js";
import { apiFor, progress, type Api } from "./support.js";
import { complete, initiate, put, type StoredObject, type UploadSpec } from "./uploads.js";

const SPEC = baseline("spec: 1-3 s", 1000, "ms");
const WARM_UP_UPLOADS = 2;
const LARGE = 20_000_000;

interface Timed {
  ms: number;
  object: StoredObject;
}

/** Only the complete call is timed; the PUT before it is not. */
async function completeTimed(api: Api, spec: UploadSpec): Promise<Timed> {
  const started = await initiate(api, spec, spec.bytes.length);
  await put(started, spec.bytes);
  const { ms, value } = await timed(() => complete(api, started.storedObject.id));
  if (value.status !== "READY") throw new Error(`${spec.filename} ended ${value.status}: ${JSON.stringify(value.scanResult)}`);
  return { ms, object: value };
}

async function series(api: Api, runs: number, spec: (index: number) => UploadSpec): Promise<Timed[]> {
  const results: Timed[] = [];
  for (let i = 0; i < runs; i++) results.push(await completeTimed(api, spec(i)));
  return results;
}

const bytesRead = (object: StoredObject) => Number(object.scanResult?.bytesRead ?? NaN);

export const scanLatency: BenchGroup = {
  name: "scan",
  kind: "stack",
  async run({ stack, options }) {
    const api = await apiFor(stack.apiUrl, "bench-scan");
    const png = photoPng();
    // One owner per upload: a profile photo without a previous one to supersede.
    const photo = (i: number): UploadSpec => ({ objectClass: "USER_PROFILE_PHOTO", contentType: "image/png", bytes: png, filename: "me.png", ownerEntityId: `owner-${i}` });
    await series(api, WARM_UP_UPLOADS, (i) => photo(-1 - i));
    progress(`complete-to-READY: ${options.pngRuns} PNG of ${png.length} bytes`);
    const pngs = (await series(api, options.pngRuns, photo)).map((r) => r.ms);

    progress(`complete-to-READY: ${options.pdfRuns} PDF of ${LARGE} bytes`);
    const pdf = fileOfSize(LARGE, largePdf);
    const pdfs = await series(api, options.pdfRuns, () => ({ objectClass: "GENERAL_DOCUMENT", contentType: "application/pdf", bytes: pdf, filename: "big.pdf" }));

    progress(`bytes read: one JPEG of ${LARGE} bytes`);
    const jpeg = fileOfSize(LARGE, largeJpeg);
    const [jpegRun] = await series(api, 1, () => ({ objectClass: "GENERAL_DOCUMENT", contentType: "image/jpeg", bytes: jpeg, filename: "big.jpg" }));

    const pngNote = `${(png.length / 1000).toFixed(0)} KB noise PNG, n=${options.pngRuns}`;
    return [
      figure("complete-to-READY p50, 100 KB PNG", percentile(pngs, 50), "ms", SPEC, pngNote),
      figure("complete-to-READY p99, 100 KB PNG", percentile(pngs, 99), "ms", SPEC, pngNote),
      figure("complete-to-READY p50, 20 MB PDF", percentile(pdfs.map((r) => r.ms), 50), "ms", SPEC, `n=${options.pdfRuns}`),
      readFigure("JPEG", jpeg.length, bytesRead(jpegRun.object), "60 KB EXIF before the frame header"),
      readFigure("PDF", pdf.length, bytesRead(pdfs[0].object), "every byte once: JavaScript, launch actions and embedded files are looked for anywhere (#11)"),
    ];
  },
};

function readFigure(kind: string, size: number, read: number, shape: string): Figure {
  return figure(
    `Bytes read per scan, 20 MB ${kind}`,
    read / 1000,
    "KB",
    baseline("a full read", size / 1000, "KB"),
    `scanResult.bytesRead = ${read} of ${size} bytes; ${shape}`,
  );
}
