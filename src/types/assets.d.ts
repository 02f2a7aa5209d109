// Files imported with `{ type: "file" }` resolve to a path the binary can read.
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "*.data" {
  const path: string;
  export default path;
}
