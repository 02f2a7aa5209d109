// The trash's shapes: an item of any kind, its page, and the answers of restore and purge.
import { t } from "elysia";
import { TRASH_KINDS } from "../../core/trash.ts";
import { Enum, Int, Page } from "../../http/envelope.ts";
import { ID_PATTERN, IMAGE_ID_PATTERN } from "../../infra/ids.ts";

export const TrashItem = t.Object(
  {
    id: t.String({ description: "the item's own id: the one it had, and has again once restored" }),
    kind: Enum(TRASH_KINDS),
    name: t.String({ description: "an image's or a KB's name, a video's, an audio file's or a document's title" }),
    size: Int({ description: "bytes it holds, still counted in storage (and in usage's trashBytes) until purged" }),
    deletedAt: t.String({ format: "date-time" }),
    purgeAt: t.String({ format: "date-time", description: "when the scheduled purge removes it for good (deletedAt + the retention the operator set)" }),
  },
  { title: "TrashItem" },
);
export type TrashItem = typeof TrashItem.static;

export const TrashPage = Page(TrashItem);

export const ListTrashQuery = t.Object({
  kind: t.Optional(Enum(TRASH_KINDS, { description: "one kind only; every kind when absent" })),
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});
export type ListTrashQuery = typeof ListTrashQuery.static;

export const TrashParams = t.Object({
  id: t.String({ pattern: `${IMAGE_ID_PATTERN}|${ID_PATTERN}`, description: "an image id (11 characters) or any other item's (21)" }),
});

export const RestoredItem = t.Object({ id: t.String(), kind: Enum(TRASH_KINDS) }, { title: "RestoredTrashItem" });

export const PurgedCount = t.Object({ purged: Int({ description: "how many items were removed for good" }) }, { title: "PurgedTrash" });
