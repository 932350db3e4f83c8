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

describe('POST /api/bookings in the document (docs/product.md "Weekly series")', () => {
  const post = () => {
    const document = openApiDocument() as unknown as {
      paths: Record<string, { post: Record<string, never> }>;
    };
    return document.paths["/api/bookings"]?.post as unknown as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
      responses: Record<string, { content: Record<string, { schema: unknown }> }>;
    };
  };
  const json = (value: unknown) => JSON.stringify(value);

  it("takes `repeat` with every, count and skip", () => {
    const repeat = json(post().requestBody.content["application/json"]?.schema.properties.repeat);
    expect(repeat).toContain('"enum":["week","2weeks"]');
    expect(repeat).toContain('"minimum":2');
    expect(repeat).toContain('"maximum":12');
    expect(repeat).toContain('"skip"');
  });

  it("answers a series' 201 with seriesId and bookings, and its 422 with conflicts", () => {
    const created = json(post().responses["201"]?.content["application/json"]?.schema);
    expect(created).toContain('"seriesId"');
    expect(created).toContain('"bookings"');
    const refused = json(post().responses["422"]?.content["application/json"]?.schema);
    expect(refused).toContain('"conflicts"');
    expect(refused).toContain('"alternatives"');
  });
});
