/**
 * A small tus 1.0 client over fetch (so every answer passes the contract check), for the
 * session files' tests: create an upload, ask its offset, send bytes from an offset, give it
 * up. The browser's uploader is tus-js-client; tests/integration/session-files.test.ts runs
 * that too.
 */
export const TUS = { "Tus-Resumable": "1.0.0" } as const;

/** Upload-Metadata: each value base64, pairs separated by commas. */
export function tusMetadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value, "utf8").toString("base64")}`)
    .join(",");
}

export function tusClient(baseUrl: string, cookie: string) {
  const headers = (extra: Record<string, string> = {}) => ({ ...TUS, Cookie: cookie, ...extra });
  return {
    create(bookingId: number | string, file: { size: number; name: string; type: string }) {
      return fetch(`${baseUrl}/api/admin/bookings/${bookingId}/files`, {
        method: "POST",
        headers: headers({
          "Upload-Length": String(file.size),
          "Upload-Metadata": tusMetadata({ filename: file.name, filetype: file.type }),
        }),
      });
    },
    head(uploadPath: string) {
      return fetch(`${baseUrl}${uploadPath}`, { method: "HEAD", headers: headers() });
    },
    patch(uploadPath: string, offset: number, bytes: Buffer) {
      return fetch(`${baseUrl}${uploadPath}`, {
        method: "PATCH",
        headers: headers({
          "Upload-Offset": String(offset),
          "Content-Type": "application/offset+octet-stream",
        }),
        body: new Uint8Array(bytes),
      });
    },
    terminate(uploadPath: string) {
      return fetch(`${baseUrl}${uploadPath}`, { method: "DELETE", headers: headers() });
    },
  };
}
