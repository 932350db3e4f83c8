/**
 * How a session's files read on the admin page and in My Sessions (docs/product.md "Session
 * files"): a kind a person recognises instead of a MIME type, and whether the page offers a
 * player. Pure and tiny, so the customer's page brings no form library for it.
 */

const KINDS: Record<string, string> = {
  "application/pdf": "PDF",
  "application/zip": "Zip archive",
  "application/x-zip-compressed": "Zip archive",
  "text/plain": "Text",
  "text/csv": "Spreadsheet (CSV)",
  "text/vtt": "Subtitles",
};

const FAMILIES: Record<string, string> = {
  audio: "Audio",
  video: "Video",
  image: "Image",
  text: "Text",
};

/** Subtypes whose name is not the format people know. */
const FORMATS: Record<string, string> = {
  "audio/mpeg": "MP3",
  "audio/mp4": "M4A",
  "audio/wave": "WAV",
  "video/quicktime": "MOV",
  "video/x-matroska": "MKV",
  "text/markdown": "Markdown",
};

/** "Audio (WAV)", "Video (MOV)", "PDF", "Zip archive": the type column and the customer's list. */
export function fileKindLabel(contentType: string): string {
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  const known = KINDS[type];
  if (known) return known;
  const [family = "", subtype = ""] = type.split("/");
  const label = FAMILIES[family];
  if (!label) return "File";
  const format =
    FORMATS[type] ??
    subtype
      .replace(/^(x-|vnd\.)/, "")
      .split(/[.+]/)[0]
      ?.toUpperCase();
  return format ? `${label} (${format})` : label;
}

/**
 * Audio the page plays in place (docs/product.md "Session files"): the formats every current
 * browser decodes. Other audio (AIFF, say) is downloaded only, rather than shown as a player
 * that cannot play.
 */
const PLAYABLE_AUDIO = new Set([
  "audio/wav",
  "audio/wave",
  "audio/x-wav",
  "audio/vnd.wave",
  "audio/mpeg",
  "audio/mp3",
  "audio/mp4",
  "audio/x-m4a",
  "audio/aac",
  "audio/ogg",
  "audio/opus",
  "audio/flac",
  "audio/x-flac",
  "audio/webm",
]);

export function isPlayableAudio(contentType: string): boolean {
  return PLAYABLE_AUDIO.has((contentType.split(";")[0] ?? "").trim().toLowerCase());
}

/** The URL that downloads one file, for its owner and staff (docs/product.md "The JSON API"). */
export function sessionFileUrl(bookingId: number, fileId: number): string {
  return `/api/bookings/${bookingId}/files/${fileId}`;
}

/** The URL the admin page's uploads go to: the tus endpoint, and the form without JavaScript. */
export function sessionFileUploadUrl(bookingId: number): string {
  return `/api/admin/bookings/${bookingId}/files`;
}
