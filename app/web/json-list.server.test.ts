import { describe, expect, it } from "vitest";
import { jsonListBody, jsonListResponse } from "#app/web/json-list.server";

/** A list of `count` rows (ids count..1, newest first) walked by id, recording each read. */
function walkOf(count: number) {
  const rows = Array.from({ length: count }, (_, index) => ({ id: count - index }));
  const reads: { after: number | null; limit: number }[] = [];
  return {
    reads,
    walk: {
      next: (after: number | null, limit: number) => {
        reads.push({ after, limit });
        return rows.filter((row) => after === null || row.id < after).slice(0, limit);
      },
      keyOf: (row: { id: number }) => row.id,
      toJson: (row: { id: number }) => ({ id: row.id }),
    },
  };
}

async function chunksOf(body: ReadableStream<Uint8Array>): Promise<string[]> {
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    chunks.push(decoder.decode(read.value));
  }
  return chunks;
}

describe("jsonListBody", () => {
  it.each([0, 1, 2, 3, 4, 7, 9])(
    "writes %i rows as one JSON array, a chunk of 3 at a time",
    async (count) => {
      const { walk, reads } = walkOf(count);
      const chunks = await chunksOf(jsonListBody(walk, 3));
      const ids = (JSON.parse(chunks.join("")) as { id: number }[]).map((row) => row.id);
      expect(ids).toEqual(Array.from({ length: count }, (_, index) => count - index));
      // One read per chunk, each after the last row sent (by key, never by offset).
      expect(reads.length).toBe(Math.floor(count / 3) + 1);
      expect(reads[0]).toEqual({ after: null, limit: 3 });
      for (const [index, read] of reads.slice(1).entries()) {
        expect(read.after).toBe(count - 3 * (index + 1) + 1);
      }
      expect(chunks.length).toBe(reads.length);
    },
  );

  it("reads the next chunk only when the reader asks for it", async () => {
    const { walk, reads } = walkOf(10);
    const reader = jsonListBody(walk, 2).getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The first chunk was read, and at most one more is queued ahead of the reader.
    expect(reads.length).toBeLessThanOrEqual(2);
    await reader.cancel();
  });
});

describe("jsonListResponse", () => {
  it("answers 200 JSON without a length, keeping the headers given", async () => {
    const response = jsonListResponse(walkOf(2).walk, { headers: { "Cache-Control": "no-store" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("Content-Length")).toBeNull();
    expect(await response.json()).toEqual([{ id: 2 }, { id: 1 }]);
  });
});
