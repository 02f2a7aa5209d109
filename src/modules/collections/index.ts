// /v1/collections: ordered sets of the caller's media (albums, playlists, series). Reads
// need media.read, every change media.write (deleting a collection deletes no media).
import { Elysia } from "elysia";
import { depsAt } from "../../http/addresses.ts";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { addItems, listItems, removeItems, reorderItems } from "./items.ts";
import { COLLECTION_LIMITS as L } from "./limits.ts";
import {
  AddItemsBody,
  AddItemsResult,
  Collection,
  CollectionEntryPage,
  CollectionPage,
  CollectionParams,
  CreateCollectionBody,
  ListQuery,
  OrderBody,
  RemoveItemsBody,
  RemoveItemsResult,
  UpdateCollectionBody,
} from "./model.ts";
import { createCollection, deleteCollection, getCollection, listCollections, updateCollection } from "./service.ts";

const read = { scope: "media.read", tier: "read" } as const;
const write = { scope: "media.write", tier: "mutation" } as const;

export const collectionsModule = ({ deps, guard }: RouteServices) =>
  new Elysia({ name: "collections", detail: { tags: ["collections"] } })
    .use(sharedModels)
    .use(guard)
    .post(
      "/v1/collections",
      async ({ principal, body, request, status }) => status(201, ok(await createCollection(depsAt(deps, request), principal.userId, body))),
      {
        auth: write,
        body: CreateCollectionBody,
        response: { 201: Ok(Collection), 403: "Error", 404: "Error", 422: "Error" },
        detail: {
          summary: "Create a collection, with its first items if given",
          description: `404 NOT_FOUND naming an item the caller has nothing under (meta.entity, meta.id), and nothing is created; 403 COLLECTION_LIMIT_REACHED past ${L.perAccount} collections.`,
        },
      },
    )
    .get(
      "/v1/collections",
      async ({ principal, query, request }) =>
        ok(await listCollections(depsAt(deps, request), principal.userId, { cursor: query.cursor, limit: query.limit ?? 20 })),
      {
        auth: read,
        query: ListQuery,
        response: { 200: Ok(CollectionPage), 400: "Error" },
        detail: { summary: "List collections, newest first, each with its item count and cover" },
      },
    )
    .get("/v1/collections/:id", async ({ principal, params, request }) => ok(await getCollection(depsAt(deps, request), principal.userId, params.id)), {
      auth: read,
      params: CollectionParams,
      response: { 200: Ok(Collection), 404: "Error" },
      detail: { summary: "One collection" },
    })
    .patch(
      "/v1/collections/:id",
      async ({ principal, params, body, request }) => ok(await updateCollection(depsAt(deps, request), principal.userId, params.id, body)),
      {
        auth: write,
        params: CollectionParams,
        body: UpdateCollectionBody,
        response: { 200: Ok(Collection), 404: "Error", 409: "Error", 422: "Error" },
        detail: {
          summary: "Change a collection's title, description or cover",
          description: "The cover must be an item of the collection (409 COLLECTION_COVER_NOT_ITEM); null goes back to the first item.",
        },
      },
    )
    .delete(
      "/v1/collections/:id",
      async ({ principal, params, set }) => {
        await deleteCollection(deps, principal.userId, params.id);
        set.status = 204;
      },
      {
        auth: write,
        params: CollectionParams,
        response: { 204: NoContent, 404: "Error" },
        detail: { summary: "Delete a collection; its items stay in the library" },
      },
    )
    .get(
      "/v1/collections/:id/items",
      async ({ principal, params, query, request }) =>
        ok(await listItems(depsAt(deps, request), principal.userId, params.id, { cursor: query.cursor, limit: query.limit ?? 20 })),
      {
        auth: read,
        params: CollectionParams,
        query: ListQuery,
        response: { 200: Ok(CollectionEntryPage), 400: "Error", 404: "Error" },
        detail: {
          summary: "A collection's items in order, each with the item as its kind lists it",
          description: "An item deleted since is not listed (a page may then hold fewer than limit; nextCursor says whether more follow).",
        },
      },
    )
    .post(
      "/v1/collections/:id/items",
      async ({ principal, params, body, request }) => ok(await addItems(depsAt(deps, request), principal.userId, params.id, body)),
      {
        auth: write,
        params: CollectionParams,
        body: AddItemsBody,
        response: { 200: Ok(AddItemsResult), 404: "Error", 409: "Error", 422: "Error" },
        detail: {
          summary: "Add items, at the end or at a position",
          description: `All or nothing: 404 NOT_FOUND naming an item the caller has nothing under (meta.entity, meta.id); 409 COLLECTION_FULL past ${L.itemsPerCollection} items. An item already in the collection keeps its place (counted in alreadyIn).`,
        },
      },
    )
    .delete(
      "/v1/collections/:id/items",
      async ({ principal, params, body, request }) => ok(await removeItems(depsAt(deps, request), principal.userId, params.id, body)),
      {
        auth: write,
        params: CollectionParams,
        body: RemoveItemsBody,
        response: { 200: Ok(RemoveItemsResult), 404: "Error", 422: "Error" },
        detail: { summary: "Take items out of a collection (the items stay in the library); one not in it is counted in notIn" },
      },
    )
    .put(
      "/v1/collections/:id/order",
      async ({ principal, params, body, request }) => ok(await reorderItems(depsAt(deps, request), principal.userId, params.id, body)),
      {
        auth: write,
        params: CollectionParams,
        body: OrderBody,
        response: { 200: Ok(Collection), 404: "Error", 409: "Error", 422: "Error" },
        detail: {
          summary: "Put a collection's items in a new order",
          description:
            "The body names every item of the collection once, in the new order; anything else is 409 COLLECTION_ORDER_MISMATCH (meta.missing, meta.unknown) and nothing changes.",
        },
      },
    );
