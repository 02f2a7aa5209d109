// The KB side that documents asks for (documents/kb-side.ts), provided as this module loads:
// a document's KB locked, checked and counted, its tombstones, its conflict branches.
import { eq } from "drizzle-orm";
import { provideKbSide } from "../documents/public.ts";
import { purgeDocBranches } from "./branches.ts";
import { getKb, lockKb, moveKbCounts } from "./service.ts";
import { conflictBranches } from "./table.ts";
import { writeTombstone } from "./tombstones.ts";

provideKbSide({
  lock: async (tx, q) => {
    await lockKb(tx, q);
  },
  check: async (db, q) => {
    await getKb(db, q);
  },
  moveCounts: moveKbCounts,
  tombstone: writeTombstone,
  purgeDocBranches,
  branchObjects: {
    table: conflictBranches,
    key: conflictBranches.objectKey,
    owner: conflictBranches.ownerId,
    bytes: conflictBranches.sizeBytes,
    counted: eq(conflictBranches.status, "pending"),
  },
});
