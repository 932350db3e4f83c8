import { describe, expect, it } from "vitest";
import { z } from "#app/domain/zod";
import { allowOf, describedMethodsOnly, methodRefusal, readJson } from "#app/web/api.server";
import type { ApiPaths } from "#app/web/api-doc";

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

describe("methods stated once, in the route's openapi", () => {
  const described: ApiPaths = {
    "/api/things": {
      post: { responses: { 201: { description: "Made" } } },
      get: { responses: { 200: { description: "Listed" } } },
    },
  };
  const upload: ApiPaths = {
    "/api/uploads/{id}": {
      delete: { responses: { 204: { description: "Gone" } } },
      head: { responses: { 200: { description: "Offset" } } },
      patch: { responses: { 204: { description: "Taken" } } },
    },
  };

  it("derives the Allow header from the operations described", () => {
    expect(allowOf(described)).toBe("GET, POST");
    expect(allowOf(upload)).toBe("HEAD, PATCH, DELETE");
  });

  it("answers another method 405 with our message and the derived Allow", async () => {
    const refused = methodRefusal("PUT", allowOf(described));
    expect(refused?.status).toBe(405);
    expect(refused?.headers.get("Allow")).toBe("GET, POST");
    expect(await refused?.json()).toEqual({ message: "Method not allowed" });
    expect(methodRefusal("GET", allowOf(upload))?.headers.get("Allow")).toBe("HEAD, PATCH, DELETE");
  });

  it("lets the described methods through, HEAD and OPTIONS as the GET their loader answers", () => {
    for (const method of ["GET", "POST", "HEAD", "OPTIONS"]) {
      expect(methodRefusal(method, allowOf(described))).toBeNull();
    }
    expect(methodRefusal("HEAD", allowOf(upload))).toBeNull();
    expect(methodRefusal("OPTIONS", allowOf(upload))?.status).toBe(405);
  });

  it("is a middleware that refuses before the handlers run", async () => {
    const middleware = describedMethodsOnly(described);
    const handled = new Response("handled");
    const call = (method: string) =>
      middleware(
        { request: new Request("http://localhost/api/things", { method }) } as never,
        async () => handled,
      );
    expect(await call("POST")).toBe(handled);
    const refused = await call("DELETE");
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(405);
  });
});
