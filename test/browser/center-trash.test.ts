// The dashboard's Trash screen in Chromium: what was deleted listed with its kind, size and
// dates; Restore and Delete forever on each (the latter after a confirmation), Empty trash
// after one; every control named. Asserts what the person sees and what the API then holds;
// the page logs no error and fetches nothing off origin. Screenshots go to a temporary folder.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson } from "../helpers/context.ts";
import { makeUser, PASSWORD } from "../helpers/factories.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { uploadedDoc } from "../documents/fixtures.ts";
import { axeViolations } from "./axe.ts";
import { findChromium } from "./chromium.ts";
import { DESKTOP, dashboardHarness } from "./dashboard.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("the dashboard's Trash screen in Chromium", () => {
  const d = dashboardHarness(executable, "center-trash");
  const { open, shootBoth, clean, signIn, go } = d;

  test("deleted items are listed with kind, size and dates; restored, deleted forever, or all emptied after a confirmation", async () => {
    const user = await makeUser();
    const login = await callJson("POST", "/v1/auth/login", { app: d.rig.o.app, json: { email: user.email, password: PASSWORD } });
    const jwt = login.body.data.accessToken as string;
    const api = (method: string, path: string) => callJson(method, path, { app: d.rig.o.app, token: jwt });
    const sea = await uploaded(user.jwt, await png(48, 32), { filename: "sea.png" });
    const hill = await uploaded(user.jwt, await png(40, 40), { filename: "hill.png" });
    const note = await uploadedDoc(user.jwt, { filename: "plans.md", content: "# Plans\n\nFor the summer.\n" });
    for (const path of [`/v1/images/${sea.id}`, `/v1/images/${hill.id}`, `/v1/docs/${note.id}`]) {
      expect((await call("DELETE", path, { app: d.rig.o.app, token: jwt })).status).toBe(204);
    }

    const page = await open(DESKTOP);
    await signIn(page, user.email);
    await go(page, "Trash");
    const list = page.getByRole("list", { name: "Deleted items" });
    const row = (name: string) => list.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });
    await row("sea.png").waitFor();
    await expect(row("sea.png").textContent()).resolves.toContain("Image");
    await expect(row("Plans").textContent()).resolves.toContain("Document");
    await expect(row("Plans").locator("time").count()).resolves.toBe(2);
    await expect(axeViolations(page)).resolves.toEqual([]);
    await shootBoth(page, "trash");
    // The usage screen says how much of the storage the trash holds, and leads to it.
    await go(page, "Usage");
    await page.getByText(/of it is in the trash, counted until it is deleted for good/).waitFor();
    await page.getByRole("link", { name: "the trash" }).click();
    await row("sea.png").waitFor();

    await page.getByRole("button", { name: "Restore sea.png" }).click();
    await page.getByRole("status").getByText("sea.png restored.").waitFor();
    await row("sea.png").waitFor({ state: "detached" });
    expect((await api("GET", `/v1/images/${sea.id}`)).status).toBe(200);

    // Delete forever asks first: dismissed, nothing happens; accepted, it goes.
    page.once("dialog", (dialog) => dialog.dismiss());
    await page.getByRole("button", { name: "Delete forever: hill.png" }).click();
    await expect(row("hill.png").isVisible()).resolves.toBe(true);
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "Delete forever: hill.png" }).click();
    await page.getByRole("status").getByText("hill.png deleted forever.").waitFor();
    expect((await api("GET", "/v1/trash")).body.data.items.map((i: { id: string }) => i.id)).toEqual([note.id]);

    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "Empty trash" }).click();
    await page.getByRole("status").getByText("1 item deleted forever.").waitFor();
    await page.getByText("The trash is empty.").waitFor();
    expect((await api("GET", "/v1/trash")).body.data.items).toEqual([]);
    await clean(page);
  });
});
