import { describe, expect, it } from "vitest";
import { actorsFor } from "#tests/setup/actors";
import { inlineScriptHashes, scriptSources } from "#tests/setup/csp";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * The first paint waits for the HTML and the stylesheet only (decision 0094): no module is
 * preloaded or imported before it. React Router's preloads and module script are in an inert
 * <template>, which an inline script puts into the head after the first frame; the CSP allows
 * both by their hashes.
 */
const server = serverForThisFile();
const { signUp } = actorsFor(server);

const between = (html: string, open: RegExp, close: string) => {
  const start = html.search(open);
  expect(start, String(open)).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf(close, start));
};

describe("the page's JavaScript after the first paint", () => {
  it("leaves the stylesheet alone in the head and holds the modules in the template", async () => {
    const customer = await signUp();
    for (const [path, cookie] of [
      ["/", undefined],
      ["/auth", undefined],
      ["/dashboard", customer.cookie],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, {
        headers: cookie ? { Cookie: cookie } : {},
      });
      expect(response.status, path).toBe(200);
      const sources = scriptSources(response.headers.get("Content-Security-Policy") ?? "");
      const html = await response.text();

      const head = between(html, /<head>/, "</head>");
      expect(head, path).toMatch(/<link[^>]*rel="stylesheet"[^>]*href="\/assets\/[^"]+\.css"/);
      expect(head, path).not.toContain("modulepreload");
      expect(head, path).not.toMatch(/<script[^>]*type="module"/);

      const template = between(html, /<template id="page-scripts">/, "</template>");
      const outside = html.replace(template, "");
      expect(outside, path).not.toContain("modulepreload");
      expect(outside, path).not.toMatch(/<script[^>]*type="module"/);
      expect(template, path).toMatch(/<link rel="modulepreload" href="\/assets\/entry\.client-/);
      expect(template, path).toContain('<script type="module">');
      const [moduleScript] = inlineScriptHashes(template);
      expect(sources, path).toContain(moduleScript);
      expect(template, path).toMatch(/import\("\/assets\/entry\.client-[\w-]+\.js"\)/);
      // The one that moves them into the head, after the template.
      expect(html.indexOf('getElementById("page-scripts")'), path).toBeGreaterThan(
        html.indexOf("</template>"),
      );
    }
  });
});
