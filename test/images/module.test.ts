// The seam for a module's own tests: the HTTP core with the images module alone, on the
// shared parts. Nothing else is mounted, so another module's routes are unknown here.
import { routeServices } from "../../src/wiring/services.ts";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createModuleApp } from "../../src/wiring/app.ts";
import { imagesModule } from "../../src/modules/images/index.ts";
import { testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { png, uploadForm } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("the images module on its own", () => {
  test("uploads and lists through the module alone; other modules' routes are not there", async () => {
    const { services } = await testContext();
    const app = createModuleApp(services, imagesModule(routeServices(services)));
    const { key } = await makeClient();
    const auth = { authorization: `Bearer ${key}` };
    const created = await app.handle(
      new Request("http://shelf.test/v1/images", { method: "POST", headers: auth, body: uploadForm(await png(), { filename: "alone.png" }) }),
    );
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    const list = await app.handle(new Request("http://shelf.test/v1/images", { headers: auth }));
    expect(((await list.json()) as { data: { items: { id: string }[] } }).data.items.map((i) => i.id)).toEqual([id]);
    const other = await app.handle(new Request("http://shelf.test/v1/user/me", { headers: auth }));
    expect(other.status).toBe(404);
    expect(((await other.json()) as { code: string }).code).toBe("NOT_FOUND");
  });
});
