// Every tool an agent can call, in the order tools/list shows them.
import { COLLECTION_TOOLS } from "./collection-tools.ts";
import { KB_PATH_TOOLS } from "./kb-path-tools.ts";
import { KB_TOOLS } from "./kb-tools.ts";
import { MEDIA_TOOLS } from "./media-tools.ts";
import type { Tool } from "./tool.ts";

export type { ToolContext } from "./tool.ts";

export const TOOLS: readonly Tool[] = [...KB_TOOLS, ...KB_PATH_TOOLS, ...MEDIA_TOOLS, ...COLLECTION_TOOLS];

export const toolNamed = (name: string) => TOOLS.find((t) => t.name === name);
