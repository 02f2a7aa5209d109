import { join } from "node:path";
import type { Config } from "../../config.ts";
import { createFsStorage } from "./fs.ts";
import { createS3Storage } from "./s3.ts";
import type { Storage } from "./types.ts";

export type { Storage } from "./types.ts";

export function createStorage(config: Config): Promise<Storage> {
  if (!config.S3_BUCKET) return createFsStorage(join(config.DATA_DIR, "objects"));
  return Promise.resolve(
    createS3Storage({
      bucket: config.S3_BUCKET,
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
    }),
  );
}
