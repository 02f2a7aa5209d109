// Templates: every kind renders a subject, a plain-text and an HTML body with the numbers
// formatted for people and a link into CENTER_URL; what comes from users is escaped in the
// HTML. And the document count (trial) is a quota with marks of its own.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { newId } from "../../src/infra/ids.ts";
import { formatBytes, formatMonth, formatNextMonthStart, formatPercent } from "../../src/modules/notifications/format.ts";
import { render } from "../../src/modules/notifications/templates.ts";
import { callJson } from "../helpers/context.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { startSmtp, type TestSmtp, world } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const ctx = { centerUrl: "https://center.example", nickname: null };
const GB = 1024 ** 3;

describe("templates", () => {
  test("numbers read as people read them", () => {
    expect([0, 1000, 1536, 5 * 1024 ** 2, 10 * GB, 1.25 * 1024 ** 4].map(formatBytes)).toEqual(["0 B", "1,000 B", "1.5 KB", "5 MB", "10 GB", "1.3 TB"]);
    expect(formatPercent(999, 1000)).toBe("99%");
    expect(formatPercent(1200, 1000)).toBe("120%");
    expect(formatMonth("2026-12")).toBe("December 2026");
    expect(formatNextMonthStart("2026-12")).toBe("1 January 2027");
  });

  test("media storage at 80% and the document count at 100%", () => {
    const storage = render("quota_80", { dimension: "media_storage", period: "total", mark: 80, used: 1.7 * GB, limit: 2 * GB }, ctx)!;
    expect(storage.subject).toBe("You have used 80% of your video and audio storage");
    expect(storage.text).toContain("1.7 GB of its 2 GB of video and audio storage (85%)");
    expect(storage.text).toContain("https://center.example/usage");
    const docs = render("quota_100", { dimension: "doc_count", period: "total", mark: 100, used: 100, limit: 100 }, ctx)!;
    expect(docs.subject).toBe("You have used all of your documents");
    expect(docs.text).toContain("Your account holds 100 of the 100 documents its plan allows (100%).");
    expect(docs.html).toContain("existing documents stay readable");
  });

  test("a 100% told by a refused upload says so, with the usage the refusal saw; only storage and documents have that wording", () => {
    const media = render("quota_100", { dimension: "media_storage", period: "total", mark: 100, used: 1.9 * GB, limit: 2 * GB, refused: true }, ctx)!;
    expect(media.subject).toBe("An upload was refused because your video and audio storage is full");
    expect(media.text).toContain("An upload was refused because it needed more video and audio storage than is left.");
    expect(media.text).toContain("1.9 GB of its 2 GB of video and audio storage (95%)");
    expect(media.html).toContain("New video and audio uploads are refused");
    const docs = render("quota_100", { dimension: "doc_count", period: "total", mark: 100, used: 10, limit: 10, refused: true }, ctx)!;
    expect(docs.subject).toBe("A new document was refused because your account holds all the documents its plan allows");
    expect(docs.text).toContain("A new document was refused because your account holds all the documents its plan allows.");
    const bandwidth = render("quota_100", { dimension: "image_bandwidth", period: "2026-12", mark: 100, used: GB, limit: GB, refused: true }, ctx)!;
    expect(bandwidth.subject).toBe("You have used all of your image bandwidth for December 2026");
  });

  test("expiring conflict branches: each path with its date and a link to its KB's conflicts; user text is escaped in the HTML", () => {
    const payload = {
      branches: [
        { branchId: "b1", kbId: "kb_1", docId: "d1", relativePath: 'notes/<script>alert("x")</script>.md', expiresAt: "2026-12-24T15:30:00.000Z" },
        { branchId: "b2", kbId: "kb_1", docId: "d2", relativePath: "a & b.md", expiresAt: "2026-12-25T08:00:00.000Z" },
      ],
    };
    const m = render("conflict_branches_expiring", payload, { ...ctx, nickname: "<b>Ann</b>" })!;
    expect(m.subject).toBe("2 conflict branches will be discarded in 7 days");
    expect(m.text).toContain('notes/<script>alert("x")</script>.md: discarded on 24 December 2026, 15:30 UTC');
    expect(m.text).toContain("https://center.example/kbs/kb_1/conflicts");
    expect(m.text).toStartWith("Hello <b>Ann</b>,");
    expect(m.html).not.toContain("<script>");
    expect(m.html).not.toContain("<b>Ann");
    expect(m.html).toContain("notes/&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;.md");
    expect(m.html).toContain("a &amp; b.md");
    expect(m.html).toContain('<a href="https://center.example/kbs/kb_1/conflicts">Review the conflicts</a>');
  });

  test("an unknown kind or a payload its template cannot read renders nothing", () => {
    expect(render("no_such_kind", {}, ctx)).toBeNull();
    expect(render("quota_80", { dimension: "no_such_dimension", period: "total", mark: 80, used: 1, limit: 1 }, ctx)).toBeNull();
    expect(render("conflict_branches_expiring", { branches: [] }, ctx)).toBeNull();
    expect(render("quota_80", null, ctx)).toBeNull();
  });
});

describe("document count marks (trial)", () => {
  let smtp: TestSmtp;
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    w = await world(smtp, { trial: { docCount: 5 } });
  });
  afterAll(async () => {
    await w.close();
    await smtp.close();
  });

  test("the 4th of 5 documents tells 80%, the 5th 100%; the 6th is refused and tells nothing", async () => {
    const user = await makeUser();
    const { key } = await makeKey(user);
    const post = () => callJson("POST", "/v1/docs", { app: w.app, token: key, json: { filename: "n.md", content: `# ${newId()}\n` } });
    for (let i = 0; i < 5; i++) expect((await post()).status).toBe(201);
    const refused = await post();
    expect(refused.status).toBe(403);
    expect(refused.body.meta.type).toBe("doc_count");
    await w.deliver();
    // Queued at the same instant of the stopped clock: no order between them.
    expect(
      smtp
        .to(user.email)
        .map((m) => m.subject)
        .sort(),
    ).toEqual(["You have used 80% of your documents", "You have used all of your documents"]);
    expect(smtp.to(user.email).find((m) => m.subject.includes("80%"))!.text).toContain("holds 4 of the 5 documents its plan allows (80%)");
  });
});
