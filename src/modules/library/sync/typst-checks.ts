// The compile check of the Typst texts a v2 sync applied (upserts and updates of a .typ),
// reported as `warnings` on their results as POST /v1/docs reports them: never a refusal,
// the texts are stored already. The checks run side by side; the compiler's own slots
// (src/infra/typst/) bound how many compile at once, and a check that waited too long says
// it was skipped.
import type { Deps } from "../../../core/deps.ts";
import { typstWarnings } from "../documents/typst.ts";
import type { SyncV2OpResult } from "../kbs/model.ts";
import type { SyncOp } from "./service.ts";

export async function addTypstWarnings(deps: Pick<Deps, "typst">, ops: readonly SyncOp[], results: SyncV2OpResult[]): Promise<void> {
  await Promise.all(
    results.map(async (r) => {
      const op = ops[r.opIndex];
      if (r.status !== "applied" || !op || (op.kind !== "upsert" && op.kind !== "update") || op.content === null) return;
      if (!r.relativePath?.toLowerCase().endsWith(".typ")) return;
      r.warnings = await typstWarnings(deps, op.content);
    }),
  );
}
