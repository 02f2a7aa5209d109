// compose.yaml as `make fleet-test` reads it (scripts/container/fleet-compose.ts): what the
// fleet needs of the file holds without a container engine, and the reader does what the
// compose format says (interpolation, depends_on order, the podman run arguments).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { composeCommands, interpolate, parseCompose, startOrder, waitDeadlineMs } from "../../scripts/container/fleet-compose.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const raw = Bun.YAML.parse(await Bun.file(join(import.meta.dir, "../../compose.yaml")).text()) as unknown;
const fleet = (env: Record<string, string | undefined> = {}) => parseCompose(interpolate(raw, { JWT_SECRET: "s".repeat(48), ...env }));

describe("compose.yaml", () => {
  test("JWT_SECRET is required; the images default to the public ones and follow their variables", () => {
    expect(() => parseCompose(interpolate(raw, {}))).toThrow(/JWT_SECRET: set JWT_SECRET/);
    const f = fleet();
    expect(f.services.postgres!.image).toBe("postgres:16-bookworm");
    expect(f.services.redis!.image).toBe("redis:7-bookworm");
    expect(f.services.s3!.image).toBe("minio/minio:latest");
    expect(f.services["s3-bucket"]!.image).toBe("minio/mc:latest");
    expect(f.services.api!.image).toBe("shelf:local");
    expect(f.services.worker!.image).toBe("shelf:local");
    const local = fleet({ POSTGRES_IMAGE: "pg:here", SHELF_IMAGE: "shelf:other" });
    expect(local.services.postgres!.image).toBe("pg:here");
    expect(local.services.worker!.image).toBe("shelf:other");
  });

  test("the api and the worker are one image with roles, on the same parts; workers call back to the api by name", () => {
    const { api, worker } = fleet({ POSTGRES_PASSWORD: "pw" }).services;
    expect(api!.command).toEqual(["serve", "--role", "api"]);
    expect(worker!.command).toEqual(["serve", "--role", "worker"]);
    for (const s of [api!, worker!]) {
      expect(s.environment).toMatchObject({
        DATABASE_URL: "postgres://shelf:pw@postgres:5432/shelf",
        REDIS_URL: "redis://redis:6379",
        S3_ENDPOINT: "http://s3:9000",
        S3_BUCKET: "shelf",
        VIDEO_PROVIDER: "local",
        VIDEO_CALLBACK_URL: "http://api:8080/webhooks/local",
      });
    }
  });

  test("start order and conditions: parts healthy and the bucket made before the api, the api healthy before the worker", () => {
    const f = fleet();
    const order = startOrder(f);
    for (const [before, after] of [
      ["postgres", "api"],
      ["redis", "api"],
      ["s3", "s3-bucket"],
      ["s3-bucket", "api"],
      ["api", "worker"],
    ]) {
      expect(order.indexOf(before!)).toBeLessThan(order.indexOf(after!));
    }
    expect(f.services.worker!.depends_on).toEqual({
      postgres: "service_healthy",
      redis: "service_healthy",
      "s3-bucket": "service_completed_successfully",
      api: "service_healthy",
    });
    for (const name of ["postgres", "redis", "s3", "api", "worker"]) expect(f.services[name]!.healthcheck).toBeDefined();
  });

  test("$$ reaches the container as $ (the bucket command reads its own environment)", () => {
    const cmd = fleet().services["s3-bucket"]!.command!.join(" ");
    expect(cmd).toContain('"$S3_ACCESS_KEY_ID" "$S3_SECRET_ACCESS_KEY"');
    expect(cmd).not.toContain("$$");
  });

  test("podman run arguments: name, network alias, project volumes, exec-form health check, stop grace", () => {
    const f = fleet({ SHELF_PORT: "18080" });
    const pg = composeCommands("p", "postgres", f.services.postgres!);
    expect(pg.slice(0, 6)).toEqual(["--name", "p-postgres", "--network", "p", "--network-alias", "postgres"]);
    expect(pg).toContain("p_postgres-data:/var/lib/postgresql/data");
    expect(pg[pg.indexOf("--health-cmd") + 1]).toBe(JSON.stringify(["pg_isready", "-U", "shelf", "-d", "shelf"]));
    const api = composeCommands("p", "api", f.services.api!);
    expect(api[api.indexOf("-p") + 1]).toBe("18080:8080");
    expect(api[api.indexOf("--stop-timeout") + 1]).toBe("30");
    expect(api.slice(-4)).toEqual(["shelf:local", "serve", "--role", "api"]);
    const bucket = composeCommands("p", "s3-bucket", f.services["s3-bucket"]!);
    expect(bucket[bucket.indexOf("--entrypoint") + 1]).toBe(JSON.stringify(["/bin/sh", "-c"]));
    // The api may take start_period + retries x (interval + timeout) to become healthy.
    expect(waitDeadlineMs(f.services.api!)).toBe(60_000 + 3 * (10_000 + 5_000));
  });

  test("a key the reader does not know is refused, not dropped", () => {
    const edited = structuredClone(raw) as { services: Record<string, Record<string, unknown>> };
    edited.services.api!.networks = ["edge"];
    expect(() => parseCompose(interpolate(edited, { JWT_SECRET: "x" }))).toThrow(/api\.networks is not supported/);
  });
});

describe("interpolation", () => {
  test("defaults, required values and bare variables as compose reads them", () => {
    const env = { SET: "v", EMPTY: "" };
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own ${...} syntax, as plain strings
    expect(interpolate("${SET:-d} ${EMPTY:-d} ${EMPTY-d} ${UNSET-d} $SET $$SET", env)).toBe("v d  d v $SET");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own ${...} syntax, as plain strings
    expect(() => interpolate("${EMPTY:?say so}", env)).toThrow(/EMPTY: say so/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own ${...} syntax, as plain strings
    expect(interpolate("${EMPTY?fine}", env)).toBe("");
  });
});
