import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "#app/routes/api/openapi.server";

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const document = structuredClone(openApiDocument());
    expect(document.openapi).toBe("3.1.0");
    const result = await validate(document as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });
});
