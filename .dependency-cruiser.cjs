// The import rules of docs/architecture.md ("Layers"), checked
// in CI (`make lint`), so they hold without anyone remembering them.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "Imports point down; a cycle means two parts that cannot be understood apart. Between module folders (one module importing another that imports it, directly or through a third) scripts/module-cycles.ts checks it, in `bun run lint`.",
      from: {},
      to: { circular: true },
    },
    {
      name: "infra-imports-no-module-or-http",
      severity: "error",
      comment: "infra is the bottom layer. The drizzle schema aggregator alone may import every module's tables.",
      from: { path: "^src/infra/", pathNot: "^src/infra/db/schema\\.ts$" },
      to: { path: "^src/(modules|http|core)/" },
    },
    {
      name: "schema-aggregator-imports-only-tables",
      severity: "error",
      from: { path: "^src/infra/db/schema\\.ts$" },
      to: { path: "^src/modules/", pathNot: ["^src/modules/[^/]+/table\\.ts$", "^src/modules/[^/]+/[^/]+/table\\.ts$"] },
    },
    {
      name: "sync-client-is-a-program-of-its-own",
      severity: "error",
      comment: "clients/sync (shelf sync) speaks to a server over HTTP only: it imports nothing of the server, so it can be read, tested and shipped alone.",
      from: { path: "^clients/sync/" },
      to: { path: "^(src|jobs|clients/mcp)/" },
    },
    {
      name: "mcp-client-shares-only-the-tools",
      severity: "error",
      comment: "clients/mcp (shelf mcp over stdio) calls a server over HTTP; of the server it shares the MCP tools' definitions alone, through the mcp module's public surface.",
      from: { path: "^clients/mcp/" },
      to: { path: "^(src|jobs)/", pathNot: "^src/modules/mcp/public\\.ts$" },
    },
    {
      name: "dashboard-shares-only-the-note-link-rules",
      severity: "error",
      comment:
        "dashboard/ runs in the browser and calls the API over HTTP; of the server it shares the notes' link rules and their markdown-it configuration alone (pure code), so a link the page draws as resolved is one the backlinks route counts, and a note reads the same on a share link's page.",
      from: { path: "^dashboard/" },
      to: { path: "^(src|jobs|clients)/", pathNot: "^src/modules/library/kbs/(note-links|note-markdown|callouts)\\.ts$" },
    },
    {
      name: "server-starts-clients-from-the-command-line-only",
      severity: "error",
      comment: "The server does not depend on its clients; the command line (src/wiring/cli/index.ts) starts them, as the one binary's subcommands.",
      from: { path: "^(src|jobs)/", pathNot: "^src/wiring/cli/index\\.ts$" },
      to: { path: "^clients/" },
    },
    {
      name: "core-imports-only-infra",
      severity: "error",
      comment:
        "core/ is what every module needs (the Deps interface, errors, cursors, scopes, text rules, the principal, the plan table), below the modules and the HTTP layer: it imports infra and the config only.",
      from: { path: "^src/core/" },
      to: { path: "^(src/(modules|http|wiring)/|jobs/|src/main\\.ts$)" },
    },
    {
      name: "services-import-no-http",
      severity: "error",
      comment:
        "A module's rules (service.ts) take plain values (bytes, a stream and its type, fields), never a Request or anything of the HTTP layer: the routes read the request and hand them over (src/core/ has what both need).",
      from: { path: "^src/modules/.+/service\\.ts$" },
      to: { path: "^src/http/" },
    },
    {
      name: "http-imports-no-module",
      severity: "error",
      comment: "http/ holds the helpers every module uses; what it needs from a module is injected.",
      from: { path: "^src/http/" },
      to: { path: "^src/modules/" },
    },
    {
      name: "modules-through-public-surface",
      severity: "error",
      comment: "A module reaches another only through its public surface (public.ts), never its tables or internals (a table may reference another's key).",
      from: { path: "^src/modules/([^/]+)/", pathNot: ["^src/modules/[^/]+/table\\.ts$", "^src/modules/[^/]+/[^/]+/table\\.ts$"] },
      to: { path: "^src/modules/([^/]+)/", pathNot: ["^src/modules/$1/", "^src/modules/[^/]+/public\\.ts$"] },
    },
    {
      name: "jobs-folder-is-runner-registry-table",
      severity: "error",
      comment:
        "A job lives in the module that owns its data (its jobs.ts, exported from its public.ts); jobs/ holds the runner, the registry and the job table, nothing else.",
      from: { path: "^jobs/", pathNot: "^jobs/(index|runner|table)\\.ts$" },
      to: {},
    },
    {
      name: "modules-import-no-runner",
      severity: "error",
      comment:
        "A module defines its jobs against src/core/job.ts and never imports the runner or the registry; the wiring builds the runner, and the schema aggregator alone reads the job table.",
      from: { path: "^src/(modules|http|infra)/", pathNot: "^src/infra/db/schema\\.ts$" },
      to: { path: "^jobs/" },
    },
    {
      name: "jobs-through-public-surface",
      severity: "error",
      comment: "Jobs call module functions, never another module's tables or internals.",
      from: { path: "^jobs/" },
      to: { path: "^src/modules/", pathNot: "^src/modules/[^/]+/public\\.ts$" },
    },
    {
      name: "table-references-only-tables",
      severity: "error",
      comment: "A table may reference another module's key, so it may import that module's table.ts, and nothing else of it.",
      from: { path: ["^src/modules/([^/]+)/table\\.ts$", "^src/modules/([^/]+)/[^/]+/table\\.ts$"] },
      to: { path: "^src/modules/([^/]+)/", pathNot: ["^src/modules/$1/", "^src/modules/[^/]+/table\\.ts$", "^src/modules/[^/]+/[^/]+/table\\.ts$", "^src/modules/[^/]+/public\\.ts$"] },
    },
    {
      name: "no-upward-imports",
      severity: "error",
      comment:
        "Modules, http, infra and jobs never import the wiring above them (src/wiring/: app, services, server, deps, the command line, and src/main.ts, the entry); a type is not wiring.",
      from: { path: "^(src/(modules|http|infra|core)|jobs)/" },
      to: { path: "^src/(wiring/|main\\.ts$)", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "elysia-only-in-http-and-routes",
      severity: "error",
      comment:
        "Only src/http/ and a module's index.ts and model.ts (its routes and schemas), or a further controller of it (<name>.routes.ts, <name>.model.ts), speak Elysia; rules stay plain functions.",
      from: {
        path: "^src/",
        pathNot: ["^src/http/", "^src/modules/[^/]+/(index|model|[a-z0-9-]+\\.routes|[a-z0-9-]+\\.model)\\.ts$",
          "^src/modules/[^/]+/[^/]+/(index|model|[a-z0-9-]+\\.routes|[a-z0-9-]+\\.model)\\.ts$", "^src/wiring/app\\.ts$"],
      },
      to: { path: "node_modules/elysia/" },
    },
    {
      name: "no-orphans",
      severity: "warn",
      from: { orphan: true, pathNot: ["\\.d\\.ts$", "(^|/)\\.[^/]+\\.(c|m)?js$", "^(test|bench|scripts)/"] },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // TypeScript 7 has no compiler API yet: swc reads the sources.
    parser: "swc",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
