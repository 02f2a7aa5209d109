// Quota e-mails end to end: uploads through the API move img_storage past 80% and
// 100%, the deliverer sends to a real SMTP server in process, and the messages received
// carry the numbers and the link. Each mark is told once; the 80% one is optional.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { newId } from "../../src/infra/ids.ts";
import { call, callJson } from "../helpers/context.ts";
import { makeKey, makeUser, type TestUser } from "../helpers/factories.ts";
import { kbWith, openTestBranch } from "../branches/fixtures.ts";
import { startSmtp, type TestSmtp, world } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const DAY = 86_400_000;
let smtp: TestSmtp;
let w: Awaited<ReturnType<typeof world>>;
beforeAll(async () => {
  smtp = await startSmtp();
  // 1000 bytes of image and document storage; no document count cap, so img_storage alone is measured.
  w = await world(smtp, { trial: { imageStorageBytes: 1000, docCount: -1 } });
});
afterAll(async () => {
  await w.close();
  await smtp.close();
});

/** A document of exactly `bytes` bytes (its content is what img_storage counts). */
async function upload(key: string, bytes: number) {
  const head = `${newId()}\n`;
  return callJson("POST", "/v1/docs", { app: w.app, token: key, json: { filename: `${newId()}.md`, content: head + "x".repeat(bytes - head.length) } });
}

async function client(): Promise<{ user: TestUser; key: string }> {
  const user = await makeUser();
  return { user, key: (await makeKey(user)).key };
}

const usedBytes = async (key: string) => (await callJson("GET", "/v1/user/me/usage", { app: w.app, token: key })).body.data.image.storage.used;

describe("quota e-mails for img_storage", () => {
  test("uploads crossing 80% and 100% bring exactly one 80% and one 100% e-mail, with the numbers and the link; more uploads bring none", async () => {
    const { user, key } = await client();
    expect((await upload(key, 400)).status).toBe(201);
    await w.deliver();
    expect(smtp.to(user.email)).toEqual([]);

    expect((await upload(key, 400)).status).toBe(201); // 800 of 1000: 80%
    await w.deliver();
    const [warning] = smtp.to(user.email);
    expect(smtp.to(user.email)).toHaveLength(1);
    expect(warning!.from).toBe("quota@shelf.test");
    expect(warning!.subject).toBe("You have used 80% of your image and document storage");
    for (const body of [warning!.text, warning!.html]) {
      expect(body).toContain("800 B of its 1,000 B");
      expect(body).toContain("(80%)");
      expect(body).toContain(`${w.deps.config.CENTER_URL}/usage`);
    }
    expect(warning!.html).toContain(`<a href="${w.deps.config.CENTER_URL}/usage">See your usage</a>`);
    expect(warning!.text).toContain("When it is full, new image and document uploads are refused");
    expect(warning!.text).toContain("turn quota warnings off");

    expect((await upload(key, 200)).status).toBe(201); // 1000 of 1000: full
    await w.deliver();
    expect(smtp.to(user.email)).toHaveLength(2);
    const full = smtp.to(user.email)[1]!;
    expect(full.subject).toBe("You have used all of your image and document storage");
    for (const body of [full.text, full.html]) {
      expect(body).toContain("1,000 B of its 1,000 B");
      expect(body).toContain("(100%)");
      expect(body).toContain(`${w.deps.config.CENTER_URL}/usage`);
    }

    // Full: the next upload is refused and tells nothing more; neither do runs with nothing new.
    const refused = await upload(key, 50);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("QUOTA_EXCEEDED");
    await w.deliver();
    await w.deliver();
    expect(smtp.to(user.email)).toHaveLength(2);
  });

  test("going under 80% and past it again within a week tells nothing; past it again a week after the last e-mail tells it again", async () => {
    // A world of its own: its clock moves a week, past the lifetime of the other tests' sessions.
    const outer = w;
    w = await world(smtp, { trial: { imageStorageBytes: 1000, docCount: -1 } });
    try {
      await storageRetold();
    } finally {
      await w.close();
      w = outer;
    }
  });

  async function storageRetold() {
    const { user, key } = await client();
    await upload(key, 500);
    const second = (await upload(key, 300)).body.data; // 800: 80%
    await w.deliver();
    expect(smtp.to(user.email).map((m) => m.subject)).toEqual(["You have used 80% of your image and document storage"]);

    // Deleted and purged from the trash: its bytes leave the storage.
    const purger = (await makeKey(user, ["media.delete", "kb.write"])).key;
    expect((await call("DELETE", `/v1/docs/${second.id}`, { app: w.app, token: key })).status).toBe(204);
    expect((await call("DELETE", `/v1/trash/${second.id}`, { app: w.app, token: purger })).status).toBe(204);
    expect(await usedBytes(key)).toBe(500);
    const third = (await upload(key, 300)).body.data; // back to 800 within the week
    await w.deliver();
    expect(smtp.to(user.email)).toHaveLength(1);

    await call("DELETE", `/v1/docs/${third.id}`, { app: w.app, token: key });
    await call("DELETE", `/v1/trash/${third.id}`, { app: w.app, token: purger });
    w.clock.advance(7 * DAY);
    await upload(key, 300);
    await w.deliver();
    expect(smtp.to(user.email)).toHaveLength(2);
    expect(smtp.to(user.email)[1]!.subject).toBe("You have used 80% of your image and document storage");
  }

  test("quotaWarnings is on by default; off (PATCH /v1/user/me), no 80% e-mail but the 100% one still comes", async () => {
    const { user, key } = await client();
    const me = await callJson("GET", "/v1/user/me", { app: w.app, token: user.jwt });
    expect(me.body.data.quotaWarnings).toBe(true);
    const off = await callJson("PATCH", "/v1/user/me", { app: w.app, token: user.jwt, json: { quotaWarnings: false } });
    expect(off.status).toBe(200);
    expect(off.body.data.quotaWarnings).toBe(false);
    expect((await callJson("GET", "/v1/user/me", { app: w.app, token: user.jwt })).body.data.quotaWarnings).toBe(false);

    await upload(key, 850); // 85%
    await w.deliver();
    expect(smtp.to(user.email)).toEqual([]);
    await upload(key, 150); // 100%
    await w.deliver();
    expect(smtp.to(user.email).map((m) => m.subject)).toEqual(["You have used all of your image and document storage"]);
  });

  test("PATCH quotaWarnings takes a boolean only: anything else is 422 VALIDATION_ERROR and nothing changes", async () => {
    const { user } = await client();
    for (const quotaWarnings of ["no", 0, null]) {
      const res = await callJson("PATCH", "/v1/user/me", { app: w.app, token: user.jwt, json: { quotaWarnings } });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await callJson("GET", "/v1/user/me", { app: w.app, token: user.jwt })).body.data.quotaWarnings).toBe(true);
  });

  test("a conflict branch's overage (up to 20% past the limit) is measured against the plan's own limit", async () => {
    // 900 bytes synced through the shared app (its plan is larger), then a branch in this world.
    const mine = await kbWith({ "b.md": "y".repeat(900) });
    await openTestBranch(mine.user.id, mine.kb.id, "b.md", "z".repeat(150), w.deps); // 1050 of 1000, within the overage
    await w.deliver();
    expect(smtp.to(mine.user.email).map((m) => m.subject)).toEqual(["You have used all of your image and document storage"]);
    expect(smtp.to(mine.user.email)[0]!.text).toContain("1 KB of its 1,000 B of image and document storage (105%)");
  });

  test("one user's crossing is e-mailed to that user only", async () => {
    const [a, b] = [await client(), await client()];
    await upload(a.key, 900);
    await upload(b.key, 100);
    await w.deliver();
    expect(smtp.to(a.user.email)).toHaveLength(1);
    expect(smtp.to(b.user.email)).toEqual([]);
    expect(smtp.received.filter((m) => m.text.includes(a.user.email) || m.html.includes(a.user.email))).toEqual([]);
  });
});
