// `node --import ./bench/wasm-modules.mjs`: Node imports a .wasm file as the
// Workers runtime does (the default export is the compiled WebAssembly.Module),
// so the benchmarks run the product's modules that embed one (PDFium) in Node.
import { register } from "node:module";

register("./wasm-hooks.mjs", import.meta.url);
