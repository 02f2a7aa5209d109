import { t } from "elysia";
import { SCOPES } from "../../http/scopes.ts";
import { Page } from "../../http/envelope.ts";
import { PlainText } from "../../http/text.ts";

const ScopeEnum = t.UnionEnum(SCOPES);

export const CreateKeyBody = t.Object(
  {
    name: PlainText({ minLength: 1, maxLength: 100 }),
    scopes: t.Optional(
      t.Array(t.String({ maxLength: 64 }), {
        maxItems: 20,
        description: "scope names (SPEC 5.8) or a legacy tier: read, read_write, read_write_delete. Default: every *.read and *.write scope",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ApiKeyItem = t.Object({
  id: t.String(),
  name: t.String(),
  last4: t.String(),
  scopes: t.Array(ScopeEnum),
  lastUsedAt: t.Nullable(t.String({ format: "date-time" })),
  createdAt: t.String({ format: "date-time" }),
});

export const CreatedKey = t.Object({
  id: t.String(),
  name: t.String(),
  key: t.String({ description: "shown once; only its hash is stored" }),
  last4: t.String(),
  scopes: t.Array(ScopeEnum),
  createdAt: t.String({ format: "date-time" }),
});

export const KeyPage = Page(ApiKeyItem);

export const ListQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});
