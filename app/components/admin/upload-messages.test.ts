import { describe, expect, it } from "vitest";
import {
  declaredType,
  fileProblem,
  shouldRetryUpload,
  UPLOAD_MESSAGES,
  uploadErrorMessage,
} from "#app/components/admin/upload-messages";
import { gigabytes, SESSION_FILE_MESSAGES } from "#app/domain/session-files";

const LIMIT = gigabytes(20);

describe("the uploader's checks before sending", () => {
  it("accepts a recording within the limit", () => {
    expect(fileProblem({ name: "take1.wav", size: 1024, type: "audio/wav" }, LIMIT)).toBeNull();
  });

  it("reads a vague type from the extension", () => {
    expect(declaredType({ name: "take1.wav", type: "" })).toBe("audio/wav");
    expect(fileProblem({ name: "take1.wav", size: 10, type: "" }, LIMIT)).toBeNull();
  });

  it("refuses a type outside the allow-list, an empty file and one over the limit", () => {
    expect(fileProblem({ name: "page.html", size: 10, type: "text/html" }, LIMIT)).toBe(
      SESSION_FILE_MESSAGES.contentType,
    );
    expect(fileProblem({ name: "take1.wav", size: 0, type: "audio/wav" }, LIMIT)).toBe(
      SESSION_FILE_MESSAGES.empty,
    );
    expect(fileProblem({ name: "take1.wav", size: LIMIT + 1, type: "audio/wav" }, LIMIT)).toBe(
      "This file is too large. Files can be up to 20 GB.",
    );
  });

  it("refuses a name with control characters", () => {
    expect(fileProblem({ name: "take\u0007.wav", size: 1, type: "audio/wav" }, LIMIT)).toBe(
      SESSION_FILE_MESSAGES.nameControl,
    );
  });
});

describe("the server's refusals, in our words", () => {
  it("shows the server's own JSON message for a refusal", () => {
    const body = JSON.stringify({ message: SESSION_FILE_MESSAGES.notRecorded });
    expect(uploadErrorMessage(400, body, LIMIT)).toBe(SESSION_FILE_MESSAGES.notRecorded);
  });

  it("never shows a library's or a proxy's text", () => {
    expect(
      uploadErrorMessage(400, "Upload-Length or Upload-Defer-Length header required", LIMIT),
    ).toBe(UPLOAD_MESSAGES.refused);
    expect(uploadErrorMessage(502, "<html>Bad gateway</html>", LIMIT)).toBe(UPLOAD_MESSAGES.server);
    expect(uploadErrorMessage(400, '{"message": 12}', LIMIT)).toBe(UPLOAD_MESSAGES.refused);
    expect(uploadErrorMessage(400, "{not json", LIMIT)).toBe(UPLOAD_MESSAGES.refused);
  });

  it("reads an answer without a message by its status", () => {
    expect(uploadErrorMessage(0, "", LIMIT)).toBe(UPLOAD_MESSAGES.network);
    expect(uploadErrorMessage(401, "", LIMIT)).toBe(UPLOAD_MESSAGES.signedOut);
    expect(uploadErrorMessage(403, "", LIMIT)).toBe(UPLOAD_MESSAGES.signedOut);
    expect(uploadErrorMessage(404, "", LIMIT)).toBe(UPLOAD_MESSAGES.gone);
    expect(uploadErrorMessage(413, "", LIMIT)).toBe(
      "This file is too large. Files can be up to 20 GB.",
    );
    expect(uploadErrorMessage(415, "", LIMIT)).toBe(SESSION_FILE_MESSAGES.contentType);
    expect(uploadErrorMessage(423, "", LIMIT)).toBe(UPLOAD_MESSAGES.busy);
    expect(uploadErrorMessage(409, "", LIMIT)).toBe(UPLOAD_MESSAGES.refused);
    expect(uploadErrorMessage(507, "", LIMIT)).toBe(UPLOAD_MESSAGES.server);
  });

  it("keeps a server error's own message (after the retries, or no space at once)", () => {
    const body = JSON.stringify({ message: SESSION_FILE_MESSAGES.storageUnavailable });
    expect(uploadErrorMessage(503, body, LIMIT)).toBe(SESSION_FILE_MESSAGES.storageUnavailable);
    const noSpace = JSON.stringify({
      message: "There is not enough free space to store this file (2 GB).",
    });
    expect(uploadErrorMessage(507, noSpace, LIMIT)).toBe(
      "There is not enough free space to store this file (2 GB).",
    );
  });
});

describe("which failures are tried again", () => {
  it("retries a dropped connection and a server error, whatever the request", () => {
    for (const method of ["POST", "HEAD", "PATCH"]) {
      for (const status of [0, 500, 502, 503, 504]) {
        expect(shouldRetryUpload(status, method), `${method} ${status}`).toBe(true);
      }
    }
  });

  it("retries the protocol's try-later answers on an upload under way", () => {
    for (const method of ["HEAD", "PATCH", "patch"]) {
      for (const status of [409, 423]) {
        expect(shouldRetryUpload(status, method), `${method} ${status}`).toBe(true);
      }
    }
  });

  it("never retries a refusal: a 4xx, a 409 to the creation, no space left", () => {
    for (const status of [400, 401, 403, 404, 409, 410, 413, 415]) {
      expect(shouldRetryUpload(status, "POST"), String(status)).toBe(false);
    }
    for (const status of [400, 403, 404, 413]) {
      expect(shouldRetryUpload(status, "PATCH"), String(status)).toBe(false);
    }
    expect(shouldRetryUpload(507, "POST")).toBe(false);
    expect(shouldRetryUpload(507, "PATCH")).toBe(false);
  });
});
