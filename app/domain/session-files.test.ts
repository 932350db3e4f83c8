import { describe, expect, it } from "vitest";
import {
  ALLOWED_FILE_ACCEPT,
  asciiDownloadName,
  attachmentDisposition,
  canUploadFiles,
  EXPIRY_REMINDER_LEAD_MS,
  FILE_NAME_MAX,
  fileExpiresAt,
  fileNameProblem,
  fileSizeProblem,
  fitsInFreeSpace,
  formatBytes,
  isAllowedContentType,
  normalizeContentType,
  resolveContentType,
  SESSION_FILE_MESSAGES,
  sessionFileNameSchema,
  tooLargeMessage,
  uploadedFileName,
} from "#app/domain/session-files";
import { BOOKING_STATUSES } from "#app/domain/booking-status";

const DAY = 24 * 60 * 60_000;

describe("canUploadFiles", () => {
  it("takes files from a recorded session on, never before it or on a cancelled booking", () => {
    const allowed = BOOKING_STATUSES.filter(canUploadFiles);
    expect(allowed).toEqual(["RECORDED", "POST_PRODUCTION", "COMPLETED"]);
  });
});

describe("file names", () => {
  it.each([
    ["episode 12 - final mix.wav"],
    ["Café interview (take 2).mp3"],
    ["日本語のファイル.pdf"],
    [".hidden-but-fine"],
    ["a".repeat(FILE_NAME_MAX)],
  ])("accepts %j", (name) => {
    expect(fileNameProblem(name)).toBeNull();
  });

  it.each([
    ["", SESSION_FILE_MESSAGES.nameRequired],
    ["   ", SESSION_FILE_MESSAGES.nameRequired],
    ["a".repeat(FILE_NAME_MAX + 1), SESSION_FILE_MESSAGES.nameTooLong],
    ["../etc/passwd", SESSION_FILE_MESSAGES.nameSeparator],
    ["mix/final.wav", SESSION_FILE_MESSAGES.nameSeparator],
    ["C:\\mix.wav", SESSION_FILE_MESSAGES.nameSeparator],
    ["take\u0000.wav", SESSION_FILE_MESSAGES.nameControl],
    ["take\n1.wav", SESSION_FILE_MESSAGES.nameControl],
    ["take\u007f.wav", SESSION_FILE_MESSAGES.nameControl],
    ["take\u0085.wav", SESSION_FILE_MESSAGES.nameControl],
    ["invoice\u202efdp.exe", SESSION_FILE_MESSAGES.nameControl],
    [".", SESSION_FILE_MESSAGES.nameReserved],
    ["..", SESSION_FILE_MESSAGES.nameReserved],
    [" mix.wav", SESSION_FILE_MESSAGES.nameEdgeSpaces],
    ["mix.wav.", SESSION_FILE_MESSAGES.nameEdgeSpaces],
  ])("refuses %j", (name, message) => {
    expect(fileNameProblem(name)).toBe(message);
  });

  it("counts characters, not UTF-16 units, against the limit", () => {
    expect(fileNameProblem("🎙".repeat(FILE_NAME_MAX))).toBeNull();
    expect(fileNameProblem("🎙".repeat(FILE_NAME_MAX + 1))).toBe(SESSION_FILE_MESSAGES.nameTooLong);
  });

  it("the rename field trims, composes Unicode and answers in our words", () => {
    expect(sessionFileNameSchema.parse("  Cafe\u0301.wav ")).toBe("Café.wav");
    const bad = sessionFileNameSchema.safeParse("a/b");
    expect(bad.error?.issues.map((issue) => issue.message)).toEqual([
      SESSION_FILE_MESSAGES.nameSeparator,
    ]);
    expect(sessionFileNameSchema.safeParse(undefined).error?.issues[0]?.message).toBe(
      SESSION_FILE_MESSAGES.nameRequired,
    );
    expect(sessionFileNameSchema.safeParse(42).error?.issues[0]?.message).toBe(
      SESSION_FILE_MESSAGES.nameRequired,
    );
  });

  it("keeps a declared upload name whole (a path is refused, not cut down)", () => {
    expect(uploadedFileName(" Cafe\u0301 take.wav ")).toBe("Café take.wav");
    expect(fileNameProblem(uploadedFileName("C:\\fakepath\\take1.wav"))).toBe(
      SESSION_FILE_MESSAGES.nameSeparator,
    );
  });
});

describe("download names", () => {
  it("offers an ASCII name beside the exact one", () => {
    expect(asciiDownloadName("Café interview.mp3")).toBe("Cafe interview.mp3");
    expect(asciiDownloadName('say "hi"\\.txt')).toBe("say _hi__.txt");
    expect(asciiDownloadName("日本.pdf")).toBe("__.pdf");
    expect(asciiDownloadName("100%.txt")).toBe("100_.txt");
  });

  it("never offers an empty or reserved name", () => {
    expect(asciiDownloadName("..")).toBe("download");
    expect(asciiDownloadName(" ")).toBe("download");
  });

  it("builds an RFC 6266 attachment header with both names", () => {
    expect(attachmentDisposition("Café (1)'s.wav")).toBe(
      "attachment; filename=\"Cafe (1)'s.wav\"; filename*=UTF-8''Caf%C3%A9%20%281%29%27s.wav",
    );
  });
});

describe("content types", () => {
  it.each([
    "audio/wav",
    "audio/x-wav",
    "Audio/MPEG",
    "video/mp4",
    "video/quicktime",
    "image/png",
    "image/jpeg",
    "application/pdf",
    "application/zip",
    "application/x-zip-compressed",
    "text/plain",
    "text/csv",
    "text/plain; charset=utf-8",
  ])("allows %s", (type) => {
    expect(isAllowedContentType(type)).toBe(true);
  });

  it.each([
    "",
    "application/octet-stream",
    "application/x-msdownload",
    "application/javascript",
    "text/html",
    "TEXT/HTML; charset=utf-8",
    "text/javascript",
    "image/svg+xml",
    "audio",
    "audio/",
    "audio/wav\r\nX-Evil: 1",
    "../audio/wav",
  ])("refuses %j", (type) => {
    expect(isAllowedContentType(type)).toBe(false);
  });

  it("normalizes parameters and case away", () => {
    expect(normalizeContentType(" Audio/WAV ; codecs=1")).toBe("audio/wav");
  });

  it("takes the type from the extension only when none useful was declared", () => {
    expect(resolveContentType("", "take.wav")).toBe("audio/wav");
    expect(resolveContentType("application/octet-stream", "Take.FLAC")).toBe("audio/flac");
    expect(resolveContentType("audio/x-wav", "take.mp3")).toBe("audio/x-wav");
    expect(resolveContentType("", "setup.exe")).toBe("application/octet-stream");
    expect(resolveContentType("", "noextension")).toBe("application/octet-stream");
    expect(resolveContentType("text/html", "page.txt")).toBe("text/html");
  });

  it("offers the same families to the file picker", () => {
    for (const family of ["audio/*", "video/*", "image/*", "application/pdf", "application/zip"]) {
      expect(ALLOWED_FILE_ACCEPT.split(",")).toContain(family);
    }
  });
});

describe("sizes", () => {
  const limit = 20 * 1024 ** 3;
  it("takes one byte up to the limit", () => {
    expect(fileSizeProblem(1, limit)).toBeNull();
    expect(fileSizeProblem(limit, limit)).toBeNull();
  });

  it("refuses empty, over the limit and nonsense sizes", () => {
    expect(fileSizeProblem(0, limit)).toBe(SESSION_FILE_MESSAGES.empty);
    expect(fileSizeProblem(limit + 1, limit)).toBe(tooLargeMessage(limit));
    expect(fileSizeProblem(-1, limit)).toBe(tooLargeMessage(limit));
    expect(fileSizeProblem(1.5, limit)).toBe(tooLargeMessage(limit));
    expect(fileSizeProblem(Number.NaN, limit)).toBe(tooLargeMessage(limit));
    expect(tooLargeMessage(limit)).toBe("This file is too large. Files can be up to 20 GB.");
  });

  it("keeps the reserve free after a file", () => {
    expect(fitsInFreeSpace(100, 1100, 1000)).toBe(true);
    expect(fitsInFreeSpace(101, 1100, 1000)).toBe(false);
    expect(fitsInFreeSpace(1, 0, 0)).toBe(false);
  });

  it.each([
    [0, "0 bytes"],
    [1, "1 byte"],
    [1023, "1023 bytes"],
    [1024, "1 KB"],
    [1536, "1.5 KB"],
    [200 * 1024 ** 2, "200 MB"],
    [Math.round(1.25 * 1024 ** 3), "1.3 GB"],
    [20 * 1024 ** 3, "20 GB"],
    [3 * 1024 ** 4, "3 TB"],
  ])("formats %d as %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe("retention", () => {
  const delivered = Date.UTC(2026, 10, 27, 15);
  it("expires a file the set number of days after delivery", () => {
    expect(fileExpiresAt(delivered, 90)).toBe(delivered + 90 * DAY);
  });

  it("reminds a week before expiry", () => {
    expect(EXPIRY_REMINDER_LEAD_MS).toBe(7 * DAY);
  });
});
