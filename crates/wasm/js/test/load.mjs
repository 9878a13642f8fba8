// Loads the built package (scripts/build-wasm.sh; QI_WASM_PKG names its
// directory, target/qi-wasm-pkg by default) the way Node can: the module's
// bytes handed to init().
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const pkg = path.resolve(repo, process.env.QI_WASM_PKG ?? "target/qi-wasm-pkg");

const qi = await import(path.join(pkg, "qi_wasm.js"));
await qi.default({ module_or_path: readFileSync(path.join(pkg, "qi_wasm_bg.wasm")) });
export default qi;
