import { describe, expect, it } from "vitest";
import {
  fileKindLabel,
  isPlayableAudio,
  sessionFileUploadUrl,
  sessionFileUrl,
} from "#app/domain/session-file-display";

describe("fileKindLabel", () => {
  it("names a file's kind as people read it", () => {
    expect(fileKindLabel("audio/wav")).toBe("Audio (WAV)");
    expect(fileKindLabel("audio/x-wav")).toBe("Audio (WAV)");
    expect(fileKindLabel("video/mp4")).toBe("Video (MP4)");
    expect(fileKindLabel("audio/mpeg")).toBe("Audio (MP3)");
    expect(fileKindLabel("video/quicktime")).toBe("Video (MOV)");
    expect(fileKindLabel("image/jpeg")).toBe("Image (JPEG)");
    expect(fileKindLabel("application/pdf")).toBe("PDF");
    expect(fileKindLabel("application/zip")).toBe("Zip archive");
    expect(fileKindLabel("text/plain; charset=utf-8")).toBe("Text");
    expect(fileKindLabel("text/markdown")).toBe("Text (Markdown)");
  });

  it("says 'File' for anything else, never the raw type", () => {
    expect(fileKindLabel("application/octet-stream")).toBe("File");
    expect(fileKindLabel("")).toBe("File");
  });
});

describe("isPlayableAudio", () => {
  it("plays what browsers decode, in any case and with parameters", () => {
    expect(isPlayableAudio("audio/wav")).toBe(true);
    expect(isPlayableAudio("Audio/MPEG; foo=bar")).toBe(true);
    expect(isPlayableAudio("audio/flac")).toBe(true);
  });

  it("offers no player for AIFF, video or anything else", () => {
    expect(isPlayableAudio("audio/aiff")).toBe(false);
    expect(isPlayableAudio("video/mp4")).toBe(false);
    expect(isPlayableAudio("application/pdf")).toBe(false);
  });
});

describe("the files' URLs", () => {
  it("are the contract's", () => {
    expect(sessionFileUrl(12, 3)).toBe("/api/bookings/12/files/3");
    expect(sessionFileUploadUrl(12)).toBe("/api/admin/bookings/12/files");
  });
});
