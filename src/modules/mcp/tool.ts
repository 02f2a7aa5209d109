// What a tool is: its name, words for the agent, the scope it needs, a JSON Schema for its
// input and its output (TypeBox schemas are JSON Schema), and what it does through the API.
// One definition serves the hosted server and `shelf mcp` (client.ts says how).
import { type Static, type TObject, Type as T } from "@sinclair/typebox";
import type { Scope } from "../../core/scopes.ts";
import type { ShelfClient } from "./client.ts";
import type { ImageFetcher } from "./image-url.ts";

export const Id = T.String({ pattern: "^[A-Za-z0-9_-]{1,64}$" });
export const Cursor = T.Optional(T.String({ maxLength: 2000, description: "nextCursor of the previous page; omit for the first" }));
export const NextCursor = T.Union([T.String(), T.Null()], { description: "pass as cursor for the next page; null on the last" });
export const Instant = T.String({ format: "date-time" });
export const Sha256 = T.String({ pattern: "^[0-9a-f]{64}$" });
export const Path = T.String({ minLength: 1, maxLength: 1024, description: "relative path inside the knowledge base, e.g. notes/ideas.md" });

export interface ToolContext {
  client: ShelfClient;
  fetchImage: ImageFetcher;
}

/** What an answer shows beside its structured data: text, or an image (read_attachment). */
export type ToolContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

/** What a tool answers: its data (the output schema's), and the text an agent reads, or content blocks in its place. */
interface ToolAnswer<O> {
  data: O;
  text: string;
  content?: ToolContent[];
}

export interface Tool<I extends TObject = TObject, O extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  /**
   * The MCP annotations a client decides by (what to run without asking): readOnly, it
   * changes nothing; destructive, it may replace or remove what is there (not only add);
   * idempotent, the same call again changes nothing more (said of every read-only tool).
   */
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  input: I;
  output: O;
  run(ctx: ToolContext, args: Static<I>): Promise<ToolAnswer<Static<O>>>;
}

export const tool = <I extends TObject, O extends TObject>(t: Tool<I, O>) => t as unknown as Tool;

export const sha256Hex = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");
