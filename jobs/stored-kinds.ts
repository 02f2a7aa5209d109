// Every kind of stored thing: what the orphan sweep walks and usage verify recounts. A
// module that stores objects is one more entry.
import { storedAudio } from "../src/modules/audio/public.ts";
import { storedDocuments } from "../src/modules/documents/public.ts";
import { storedImages } from "../src/modules/images/public.ts";
import type { StoredKind } from "../src/modules/usage/public.ts";
import { storedVideos } from "../src/modules/videos/public.ts";

export const storedKinds: readonly StoredKind[] = [storedImages, storedVideos, storedAudio, storedDocuments];
