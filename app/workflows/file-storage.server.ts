import { env } from "#app/env.server";
import type { FileStorage } from "#app/integrations/file-storage.server";
import { localFileStorage } from "#app/integrations/file-storage-local.server";
import { s3FileStorage } from "#app/integrations/file-storage-s3.server";

/**
 * The storage of session files chosen by the settings: S3-compatible object storage when
 * S3_BUCKET is set, else the FILES_DIR directory (docs/product.md "Session files"). One per
 * process, kept on globalThis like the database so a dev reload does not open a second.
 */
export function fileStorage(): FileStorage {
  const shared = globalThis as { __studioFileStorage?: FileStorage };
  shared.__studioFileStorage ??= env.S3_BUCKET
    ? s3FileStorage({
        bucket: env.S3_BUCKET,
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION,
        accessKeyId: env.S3_ACCESS_KEY_ID ?? "",
        secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? "",
      })
    : localFileStorage(env.FILES_DIR);
  return shared.__studioFileStorage;
}
