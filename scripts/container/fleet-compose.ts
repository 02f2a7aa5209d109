// The part of the compose file format compose.yaml uses, for fleet-test.ts: variable
// interpolation, the services' keys, depends_on order, and the `podman run` arguments of a
// service. Anything else in the file is refused, so a new key is not silently dropped.

type Env = Record<string, string | undefined>;
type Condition = "service_started" | "service_healthy" | "service_completed_successfully";
type Healthcheck = { test: string[]; interval?: string; timeout?: string; retries?: number; start_period?: string };
export type Service = {
  image: string;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  healthcheck?: Healthcheck;
  depends_on?: Record<string, Condition>;
  restart?: string;
  stop_grace_period?: string;
};
export type ComposeFile = { services: Record<string, Service>; volumes?: Record<string, unknown> };

const SERVICE_KEYS = new Set([
  "image",
  "command",
  "entrypoint",
  "environment",
  "volumes",
  "ports",
  "healthcheck",
  "depends_on",
  "restart",
  "stop_grace_period",
]);

/** ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?message}, ${VAR?message}, $VAR and $$, in every string. */
export function interpolate<T>(value: T, env: Env): T {
  if (typeof value === "string") {
    return value.replace(/\$\$|\$\{([A-Za-z_]\w*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_]\w*)/g, (m, name, colon, op, arg, bare) => {
      if (m === "$$") return "$";
      if (bare) return env[bare] ?? "";
      const v = env[name];
      const missing = v === undefined || (colon === ":" && v === "");
      if (!op) return v ?? "";
      if (!missing) return v!;
      if (op === "-") return interpolate(arg as string, env);
      throw new Error(`compose.yaml: ${name}: ${arg || "required"}`);
    }) as T;
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env)) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)])) as T;
  return value;
}

/** The interpolated file, normalised (environment as a map, depends_on with conditions); unknown keys refused. */
export function parseCompose(raw: unknown): ComposeFile {
  const file = raw as { services?: Record<string, Record<string, unknown>>; volumes?: Record<string, unknown> };
  if (!file?.services) throw new Error("compose.yaml: no services");
  const services: Record<string, Service> = {};
  for (const [name, s] of Object.entries(file.services)) {
    for (const key of Object.keys(s)) if (!SERVICE_KEYS.has(key)) throw new Error(`compose.yaml: ${name}.${key} is not supported by the fleet test`);
    for (const key of ["command", "entrypoint"]) {
      if (s[key] !== undefined && !Array.isArray(s[key])) throw new Error(`compose.yaml: ${name}.${key}: only the list form is supported`);
    }
    const env = s.environment as Record<string, unknown> | string[] | undefined;
    const deps = s.depends_on as Record<string, { condition?: Condition }> | string[] | undefined;
    services[name] = {
      ...(s as unknown as Service),
      environment: Array.isArray(env)
        ? Object.fromEntries(env.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]))
        : Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, String(v ?? "")])),
      depends_on: Array.isArray(deps)
        ? Object.fromEntries(deps.map((d) => [d, "service_started" as const]))
        : Object.fromEntries(Object.entries(deps ?? {}).map(([d, c]) => [d, c?.condition ?? "service_started"])),
    };
  }
  return { services, volumes: file.volumes };
}

/** Services in an order where each comes after what it depends on. */
export function startOrder(file: ComposeFile): string[] {
  const order: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (order.includes(name)) return;
    if (visiting.has(name)) throw new Error(`compose.yaml: depends_on cycle at ${name}`);
    if (!file.services[name]) throw new Error(`compose.yaml: unknown service ${name}`);
    visiting.add(name);
    for (const dep of Object.keys(file.services[name]!.depends_on ?? {})) visit(dep);
    order.push(name);
  };
  for (const name of Object.keys(file.services)) visit(name);
  return order;
}

/** "1m30s", "5s", "500ms" in milliseconds. */
function durationMs(d: string | undefined, fallback: number): number {
  if (!d) return fallback;
  let ms = 0;
  for (const [, n, unit] of d.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) ms += Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as "ms"];
  return ms;
}

/** How long compose would wait for the service to become healthy: start_period + retries × (interval + timeout). */
export function waitDeadlineMs(s: Service): number {
  const h = s.healthcheck!;
  return durationMs(h.start_period, 0) + (h.retries ?? 3) * (durationMs(h.interval, 30_000) + durationMs(h.timeout, 30_000));
}

/** `podman run -d` arguments (after `run -d`) for the service in the project's network, named PROJECT-SERVICE. */
export function composeCommands(project: string, name: string, s: Service): string[] {
  const args = ["--name", `${project}-${name}`, "--network", project, "--network-alias", name];
  for (const [k, v] of Object.entries(s.environment ?? {})) args.push("-e", `${k}=${v}`);
  for (const v of s.volumes ?? []) {
    const [source, ...rest] = v.split(":");
    // A named volume (declared at the top) belongs to the project; a path is a bind mount.
    args.push("-v", [/^[./~]/.test(source!) ? source : `${project}_${source}`, ...rest].join(":"));
  }
  for (const p of s.ports ?? []) args.push("-p", p);
  if (s.restart) args.push("--restart", s.restart);
  if (s.stop_grace_period) args.push("--stop-timeout", String(Math.ceil(durationMs(s.stop_grace_period, 10_000) / 1000)));
  if (s.healthcheck) {
    const [kind, ...test] = s.healthcheck.test;
    // podman takes a JSON list as an exec form, anything else as a /bin/sh -c line.
    args.push("--health-cmd", kind === "CMD" ? JSON.stringify(test) : test.join(" "));
    if (s.healthcheck.timeout) args.push("--health-timeout", s.healthcheck.timeout);
    if (s.healthcheck.retries) args.push("--health-retries", String(s.healthcheck.retries));
  }
  if (s.entrypoint) args.push("--entrypoint", JSON.stringify(s.entrypoint));
  args.push(s.image, ...(s.command ?? []));
  return args;
}
