// Files imported with `{ type: "file" }` resolve to a path the binary can read.
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "*.data" {
  const path: string;
  export default path;
}
// Swagger UI's script and stylesheet, served by the API reference (src/http/api-reference.ts).
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const path: string;
  export default path;
}
declare module "swagger-ui-dist/swagger-ui.css" {
  const path: string;
  export default path;
}
