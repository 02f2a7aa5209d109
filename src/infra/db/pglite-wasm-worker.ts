// Compiles the WebAssembly file whose path it is sent and posts the module back
// (src/infra/db/pglite-wasm.ts).
export {};
declare const self: Worker;

self.onmessage = async (e: MessageEvent<string>) => {
  try {
    self.postMessage(await WebAssembly.compile(await Bun.file(e.data).arrayBuffer()));
  } catch (err) {
    self.postMessage(String(err));
  }
};
