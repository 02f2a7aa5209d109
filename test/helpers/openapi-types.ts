// TypeScript types of an OpenAPI document, as a client project generates them with
// openapi-typescript's Node API and the transform its documentation gives for uploads:
// a `format: binary` string (a multipart file part) is a Blob, so a File goes in the
// body with no cast (docs/api.md "A typed client"). openapi-typescript builds with the
// TypeScript 5 compiler API; in this repository it is patched to import typescript-5,
// since the project's `typescript` is the native 7 (package.json patchedDependencies).
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript-5";

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier("Blob"));
const NULL = ts.factory.createLiteralTypeNode(ts.factory.createNull());

export async function openapiTypes(doc: object): Promise<string> {
  const ast = await openapiTS(doc as never, {
    transform(schema) {
      if (schema.format !== "binary") return undefined;
      return schema.nullable ? ts.factory.createUnionTypeNode([BLOB, NULL]) : BLOB;
    },
  });
  return astToString(ast);
}
