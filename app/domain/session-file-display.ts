/** Tiny and pure, so the customer's page brings no form library for it. */

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

const FORMATS: Record<string, string> = {
  "audio/mpeg": "MP3",
  "audio/mp4": "M4A",
  "audio/wave": "WAV",
  "video/quicktime": "MOV",
  "video/x-matroska": "MKV",
  "text/markdown": "Markdown",
};

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

/** Every current browser decodes these; other audio (AIFF) is offered as a download only. */
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

export function sessionFileUrl(bookingId: number, fileId: number): string {
  return `/api/bookings/${bookingId}/files/${fileId}`;
}

export function sessionFileUploadUrl(bookingId: number): string {
  return `/api/admin/bookings/${bookingId}/files`;
}
