// Module hooks for bench/wasm-modules.mjs: a .wasm URL loads as a module whose
// default export is the file compiled.
export async function load(url, context, nextLoad) {
  if (!url.endsWith(".wasm")) return nextLoad(url, context);
  return {
    format: "module",
    shortCircuit: true,
    source: `import { readFileSync } from "node:fs";\nexport default new WebAssembly.Module(readFileSync(new URL(${JSON.stringify(url)})));\n`,
  };
}
