// /v1/kbs/:id/conflicts: a KB's pending conflict branches, one with its
// content, accept (the branch becomes master) and discard. The rules are the documents
// module's, which owns the branches.
import { Elysia } from "elysia";
import { NoContent, Ok, ok, sharedModels } from "../../../http/envelope.ts";
import { iso } from "../../../infra/clock.ts";
import type { RouteServices } from "../../../wiring/services.ts";
import { acceptBranch, discardBranch } from "./branch-resolve.ts";
import { listBranches, readBranch } from "./branches.ts";
import { AcceptResult, ConflictBranchContent, ConflictPage, ConflictParams, ListConflictsQuery } from "./conflicts.model.ts";
import { KbParams } from "./model.ts";

export const conflictsRoutes = ({ deps, guard }: RouteServices) =>
  new Elysia({ name: "kb-conflicts", detail: { tags: ["kbs"] } })
    .use(sharedModels)
    .use(guard)
    .get(
      "/v1/kbs/:id/conflicts",
      async ({ principal, params, query }) => ok(await listBranches(deps.db, principal.userId, params.id, { cursor: query.cursor, limit: query.limit ?? 20 })),
      {
        auth: { scope: "kb.read", tier: "read" },
        params: KbParams,
        query: ListConflictsQuery,
        response: { 200: Ok(ConflictPage), 400: "Error", 404: "Error" },
        detail: { summary: "A KB's pending conflict branches, oldest (soonest to be discarded) first" },
      },
    )
    .get(
      "/v1/kbs/:id/conflicts/:branchId",
      async ({ principal, params }) => ok(await readBranch(deps, { userId: principal.userId, kbId: params.id, id: params.branchId })),
      {
        auth: { scope: "kb.read", tier: "read" },
        params: ConflictParams,
        response: { 200: Ok(ConflictBranchContent), 404: "Error", 502: "Error" },
        detail: { summary: "One pending conflict branch with its content, and its master's state now" },
      },
    )
    .post(
      "/v1/kbs/:id/conflicts/:branchId/accept",
      async ({ principal, params }) => {
        const out = await acceptBranch(deps, { userId: principal.userId, kbId: params.id, id: params.branchId });
        return ok({
          branchId: out.branch.id,
          status: "adopted" as const,
          docId: out.doc.id,
          relativePath: out.doc.relativePath!,
          sourceHash: out.doc.sourceHash,
          sizeBytes: out.doc.sizeBytes,
          updatedAt: iso(out.doc.updatedAt),
          savedRevision: out.revision,
        });
      },
      {
        auth: { scope: "kb.write", tier: "mutation" },
        params: ConflictParams,
        response: { 200: Ok(AcceptResult), 403: "Error", 404: "Error", 409: "Error", 502: "Error" },
        detail: {
          summary: "Adopt a conflict branch: its content becomes the document's master, the previous master is kept as a revision when version history is on",
          description:
            "One transaction. The document's other pending branches stay. A master deleted since is recreated (403 QUOTA_EXCEEDED past doc_count). Needs an active plan (403 PLAN_INACTIVE).",
        },
      },
    )
    .delete(
      "/v1/kbs/:id/conflicts/:branchId",
      async ({ principal, params, set }) => {
        await discardBranch(deps, { userId: principal.userId, kbId: params.id, id: params.branchId });
        set.status = 204;
      },
      {
        auth: { scope: "kb.write", tier: "mutation" },
        params: ConflictParams,
        response: { 204: NoContent, 404: "Error" },
        detail: { summary: "Discard a conflict branch for good (its storage is given back)" },
      },
    );
