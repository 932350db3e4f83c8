import { describe, expect, it } from "vitest";
import { z } from "#app/domain/zod";
import { readJson } from "#app/web/api.server";

const schema = z.object({ name: z.string({ error: "Please enter a name" }) });

const post = (body: string) =>
  new Request("http://localhost/api", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });

/** What readJson threw: every refusal is a JSON Response with our message. */
async function refusal(body: string) {
  const thrown = await readJson(post(body), schema).then(
    () => null,
    (error: unknown) => error,
  );
  if (!(thrown instanceof Response)) throw new Error(`Not refused: ${body}`);
  return { status: thrown.status, body: await thrown.json() };
}

describe("readJson", () => {
  it("reads an object through the schema", async () => {
    expect(await readJson(post('{"name":"Ada"}'), schema)).toEqual({ name: "Ada" });
  });

  it.each(["[]", "null", '"text"', "42", "[{}]", "true"])(
    "refuses the body %s in our words before the schema sees it",
    async (body) => {
      expect(await refusal(body)).toEqual({
        status: 400,
        body: { message: "The request body must be a JSON object" },
      });
    },
  );

  it("answers the schema's own message, field by field", async () => {
    expect(await refusal("{}")).toEqual({
      status: 400,
      body: { message: "Please enter a name", errors: { name: ["Please enter a name"] } },
    });
  });
});
