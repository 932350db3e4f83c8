// Preloaded by compression.ts into the app it measures (node --import): every compression
// stream the app opens gets the setting in BENCH_ZLIB, so one build is measured at each
// candidate setting, garbage collection and all, without a setting in the app for it.
import zlib from "node:zlib";

const setting = JSON.parse(process.env.BENCH_ZLIB ?? "{}");
const { createBrotliCompress, createGzip } = zlib;
/**
 * zlib's exports are read-only but configurable.
 * @param {string} name
 * @param {Function} value
 */
const replace = (name, value) => Object.defineProperty(zlib, name, { value });
if (setting.encoder === "br") {
  replace("createBrotliCompress", (/** @type {zlib.BrotliOptions} */ options = {}) =>
    createBrotliCompress({
      ...options,
      params: {
        ...options.params,
        [zlib.constants.BROTLI_PARAM_QUALITY]: setting.quality,
        [zlib.constants.BROTLI_PARAM_LGWIN]: setting.window,
      },
    }),
  );
}
if (setting.encoder === "gzip") {
  replace("createGzip", (/** @type {zlib.ZlibOptions} */ options = {}) =>
    createGzip({ ...options, level: setting.level }),
  );
}
