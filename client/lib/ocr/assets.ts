// Text recognition's own files (tesseract.js's worker script, its WASM core and
// the English model), served by us under /ocr/ rather than fetched from a CDN
// that a user's network or our policy may block. vite.config.ts serves them in
// development and emits them into a production build; nothing is copied into git.

export const OCR_ASSET_BASE = "/ocr/";

/**
 * Each file served under /ocr/, by the package file it comes from. The core is
 * the SIMD + LSTM-only build: every current browser has WASM SIMD, and the LSTM
 * engine is the one the English "best_int" model below is made for.
 */
export const OCR_ASSET_SOURCES = {
  "worker.min.js": "tesseract.js/dist/worker.min.js",
  "tesseract-core-simd-lstm.js": "tesseract.js-core/tesseract-core-simd-lstm.js",
  // found by the core next to the worker script (Emscripten looks beside it)
  "tesseract-core-simd-lstm.wasm": "tesseract.js-core/tesseract-core-simd-lstm.wasm",
  "eng.traineddata.gz": "@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz",
} as const;

export type OcrAssetName = keyof typeof OCR_ASSET_SOURCES;

/** tesseract.js's paths: workerPath, corePath (one exact file, so no CDN-style variant guessing) and langPath. */
export const OCR_PATHS = {
  workerPath: `${OCR_ASSET_BASE}worker.min.js`,
  corePath: `${OCR_ASSET_BASE}tesseract-core-simd-lstm.js`,
  langPath: OCR_ASSET_BASE.replace(/\/$/, ""),
} as const;
