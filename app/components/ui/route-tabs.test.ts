import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { type RouteTab, RouteTabs } from "#app/components/ui/route-tabs";

const TABS: RouteTab[] = [
  { to: "/first", "aria-current": "page", children: "First" },
  { to: "/second", children: "Second" },
];

/** What the server sends, and so the page without JavaScript. */
function serverHtml(selected: number) {
  return renderToStaticMarkup(
    createElement(
      MemoryRouter,
      null,
      createElement(RouteTabs, { tabs: TABS, selected, className: "tabs" }),
    ),
  );
}

describe("route tabs in the server's HTML", () => {
  it("are a list of links, each reachable with the Tab key, the open one the current page", () => {
    expect(serverHtml(0)).toBe(
      '<ul class="tabs"><li><a aria-current="page" href="/first" data-discover="true">First</a>' +
        '</li><li><a href="/second" data-discover="true">Second</a></li></ul>',
    );
  });

  it("are the same links with no tab open", () => {
    expect(serverHtml(-1)).toBe(serverHtml(0));
  });
});
