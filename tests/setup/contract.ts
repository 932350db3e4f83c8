import type { z } from "zod";
import { type ApiPaths, errorBody } from "#app/web/api-doc";

/**
 * The contract check (docs/decisions/0087): every answer an integration or route test receives
 * from /api/* is held against /api/openapi.json's description of it, through the same zod schemas
 * the document is generated from. The status must be one the operation lists, and a JSON body
 * must match that status's schema. A method the path does not describe must be refused (405,
 * or 404 where the route does not exist with these settings) with `{ message }`.
 *
 * tests/setup/contract-check.ts installs it around `fetch` for every integration file (a setup
 * file of vitest.integration.config.ts), so a route and its
 * description cannot drift apart unnoticed; raw HTTP (tests/setup/raw-http.ts) is not checked.
 */

type Operation = {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> } | undefined>;
};
type Template = { path: string; pattern: RegExp; params: number };

type Described = { paths: ApiPaths; templates: Template[] };
let described: Promise<Described> | undefined;

/**
 * The descriptions, loaded on the first check rather than when the setup file runs: the route
 * modules read the settings as they load, and a test file sets its own first (stripe.test.ts).
 */
function descriptions(): Promise<Described> {
  described ??= import("#app/routes/api/openapi.server").then(({ apiPaths }) => {
    const paths = apiPaths();
    const templates = Object.keys(paths)
      .map((path) => ({
        path,
        pattern: new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/\{\w+\}/g, "[^/]+")}$`),
        params: (path.match(/\{/g) ?? []).length,
      }))
      // A literal segment wins over a parameter (/api/bookings/check-conflicts).
      .sort((a, b) => a.params - b.params);
    return { paths, templates };
  });
  return described;
}

export class ContractViolation extends Error {}

const isZod = (schema: unknown): schema is z.ZodType =>
  typeof schema === "object" && schema !== null && "safeParse" in schema;

/** The description an answer to `method pathname` is checked against, or null if none. */
function describedPath(templates: Template[], pathname: string): string | null {
  // React Router's own `.data` answers (turbo-stream) are not the JSON API.
  if (pathname.endsWith(".data")) return null;
  return templates.find((template) => template.pattern.test(pathname))?.path ?? null;
}

/**
 * Throws a ContractViolation when `response` is not what the document says `method url` answers.
 * Reads a clone, so the caller still reads the body.
 */
export async function checkApiResponse(method: string, url: URL, response: Response) {
  const { paths, templates } = await descriptions();
  const path = describedPath(templates, url.pathname);
  if (path === null || method === "HEAD" || method === "OPTIONS") return;
  const where = `${method} ${url.pathname}${url.search} answered ${response.status}`;
  const item = paths[path] as Record<string, Operation | undefined>;
  const operation = item[method.toLowerCase()];
  const text = await response.clone().text();

  if (!operation) {
    if (response.status !== 405 && response.status !== 404) {
      throw new ContractViolation(`${where}: ${method} is not described for ${path}`);
    }
    checkJson(where, errorBody, text);
    return;
  }
  const answer = operation.responses?.[String(response.status)];
  if (!answer) {
    throw new ContractViolation(
      `${where}: ${path} does not describe ${response.status} for ${method} (${text.slice(0, 200)})`,
    );
  }
  const type = (response.headers.get("Content-Type") ?? "").split(";")[0]?.trim() ?? "";
  const content = answer.content ?? {};
  // A body-less answer (a redirect; tus's creation and its 204s, which the tus protocol sends
  // without a body) to a status the operation lists.
  if (type === "" && text === "") return;
  // A download answers the file's own type: described as any type.
  if ("*/*" in content && type !== "application/json") return;
  if (!(type in content)) {
    throw new ContractViolation(`${where}: ${type} is not described (${Object.keys(content)})`);
  }
  const schema = content[type]?.schema;
  if (type === "application/json" && isZod(schema)) checkJson(where, schema, text);
}

function checkJson(where: string, schema: z.ZodType, text: string) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ContractViolation(`${where}: the body is not JSON (${text.slice(0, 200)})`);
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`);
    throw new ContractViolation(
      `${where}: the body does not match the document: ${issues.join("; ")} (${text.slice(0, 300)})`,
    );
  }
}

/** The test servers listen here (tests/setup/server.ts). */
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Wraps the global fetch so each /api answer from a test server is checked before a test sees it. */
export function installContractCheck() {
  const plainFetch = globalThis.fetch;
  if ((plainFetch as { contractChecked?: true }).contractChecked) return;
  const checkedFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await plainFetch(input, init);
    const request = input instanceof Request ? input : null;
    const url = new URL(request ? request.url : String(input));
    if (LOCAL_HOSTS.has(url.hostname) && url.pathname.startsWith("/api/")) {
      const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
      await checkApiResponse(method, url, response);
    }
    return response;
  };
  globalThis.fetch = Object.assign(checkedFetch, { contractChecked: true as const });
}
