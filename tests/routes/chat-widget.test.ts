import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { actorsFor } from "#tests/setup/actors";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * With a chat app id configured (docs/product.md "Support and chat"): the browser is told
 * the id, the Content-Security-Policy lets Intercom's hosts in, and /intercom-test shows the id.
 * Without one: support-api.test.ts.
 */
const APP_ID = "test-app-42";
const SECRET = "intercom-identity-secret-for-tests";
const server = appForThisFile({ INTERCOM_APP_ID: APP_ID, INTERCOM_IDENTITY_SECRET: SECRET });
const { signUp } = actorsFor(server);

describe("the chat widget with an app id", () => {
  it("allows Intercom's hosts in the policy of pages, not of JSON answers", async () => {
    const page = await fetch(`${server.url}/`);
    const policy = page.headers.get("Content-Security-Policy") ?? "";
    expect(policy).toContain("https://widget.intercom.io");
    expect(policy).toMatch(/connect-src [^;]*wss:\/\/nexus-websocket-a\.intercom\.io/);
    expect(policy).toMatch(/script-src 'self'( 'sha256-[^']+')+ 'strict-dynamic'/);
    expect(await page.text()).toContain(APP_ID);

    const api = await fetch(`${server.url}/api/services`);
    expect(api.headers.get("Content-Security-Policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
  });

  it("shows the app id on /intercom-test", async () => {
    const html = await (await fetch(`${server.url}/intercom-test`)).text();
    expect(html).toContain(APP_ID);
    expect(html).not.toContain("not configured");
    expect(html).toContain("The chat needs JavaScript");
  });

  it("starts a signed-in customer's chat with their id signed by the server, never the secret", async () => {
    const customer = await signUp();
    const html = await (
      await fetch(`${server.url}/`, { headers: { Cookie: customer.cookie } })
    ).text();
    const hash = createHmac("sha256", SECRET).update(String(customer.id)).digest("hex");
    expect(html).toContain(hash);
    expect(html).not.toContain(SECRET);
    // A visitor's page carries no identity at all.
    const visitor = await (await fetch(`${server.url}/`)).text();
    expect(visitor).not.toContain(hash);
  });
});
