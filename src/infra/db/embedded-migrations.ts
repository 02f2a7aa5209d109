// Imported with `{ type: "macro" }`: Bun runs this at bundle (and transpile) time and
// inlines the result, so the compiled binary carries every migration inside it.
import { readMigrationFiles } from "drizzle-orm/migrator";

export function readMigrations() {
  return readMigrationFiles({ migrationsFolder: `${import.meta.dir}/../../../migrations` });
}
