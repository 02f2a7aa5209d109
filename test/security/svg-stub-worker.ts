// Stands in for src/modules/images/svg-worker.ts in the sanitizer's tests and misbehaves
// on request: a job whose text holds "stall" never answers (a parse stuck in a loop), one
// with "throw" lets an error out of the handler, one with "exit" ends the thread.
// Anything else comes back unchanged.
declare const self: Worker;
// A module (not a script), so the declaration above does not clash with the global `self`.
export {};

self.onmessage = (event: MessageEvent<{ id: number; text: string }>) => {
  const { id, text } = event.data;
  if (text.includes("stall")) for (;;);
  if (text.includes("throw")) throw new Error("the stub worker fails on purpose");
  if (text.includes("exit")) process.exit(1);
  self.postMessage({ type: "done", id, svg: text });
};
self.postMessage({ type: "ready" });
