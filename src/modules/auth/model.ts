import { t } from "elysia";
import { PLAN_NAMES } from "../../plans.ts";
import { PlainText } from "../../http/text.ts";

export const PlanEnum = t.UnionEnum(PLAN_NAMES);

export const Credentials = t.Object({
  email: t.String({ format: "email", maxLength: 254 }),
  password: t.String({ minLength: 1, maxLength: 256 }),
});

export const SignupBody = t.Object({
  email: t.String({ format: "email", maxLength: 254 }),
  password: t.String({ minLength: 8, maxLength: 256, description: "at least 8 characters, not only one repeated character" }),
  nickname: t.Optional(PlainText({ minLength: 1, maxLength: 64 })),
});

export const SessionUser = t.Object({ id: t.String(), email: t.String(), nickname: t.Nullable(t.String()), plan: PlanEnum });

export const SessionGrant = t.Object({
  user: SessionUser,
  accessToken: t.String(),
  expiresIn: t.Integer({ description: "seconds" }),
});

export const Me = t.Object({
  id: t.String(),
  email: t.String(),
  nickname: t.Nullable(t.String()),
  plan: PlanEnum,
  planActive: t.Boolean(),
  planExpiresAt: t.Nullable(t.String({ format: "date-time" })),
  isAdmin: t.Boolean(),
  docVersioningEnabled: t.Boolean(),
  docVersioningMax: t.Integer(),
  createdAt: t.String({ format: "date-time" }),
});
export type Me = typeof Me.static;

export const MePatch = t.Object(
  {
    nickname: t.Optional(t.Nullable(PlainText({ minLength: 1, maxLength: 64 }))),
    docVersioningEnabled: t.Optional(t.Boolean()),
    docVersioningMax: t.Optional(t.Integer({ minimum: 1, maximum: 500 })),
  },
  { additionalProperties: false },
);
