import {
  Children,
  createElement,
  Fragment,
  isValidElement,
  type ReactElement,
  type ReactNode,
} from "react";
import { Scripts } from "react-router";

type ScriptsProps = Parameters<typeof Scripts>[0];
type ElementProps = {
  rel?: string;
  href?: string;
  type?: string;
  nonce?: string;
  children?: ReactNode;
  dangerouslySetInnerHTML?: { __html: string };
};

/**
 * React Router's `<Scripts>`, with the page's JavaScript fetched after the first paint
 * (decision 0094).
 *
 * The server-rendered page is complete without JavaScript: its first paint needs the HTML and
 * the stylesheet only. `<Scripts>` writes a `<link rel="modulepreload">` per module (React hoists
 * them into the head, ahead of the stylesheet, at the browser's high priority) and a module
 * script importing the route modules, so on a slow phone the stylesheet shares the line with
 * ~120 KB of JavaScript and the first paint waits for all of it. Here the same preloads and the
 * same module script are written into an inert `<template>`, and a small inline script puts them
 * into the head once the first frame is painted; the modules then load in parallel and hydrate
 * as before. The template's script keeps the response's nonce ('strict-dynamic' would trust it
 * anyway, as a script a nonced script inserted).
 *
 * React Router 7.18's `<Scripts>` takes no option for this, hence the rewrite of what it renders:
 * its classic context script stays as it is, first. On the client `<Scripts>` renders no module
 * code, so the template and the inline script only ever run from the server's HTML.
 */
export function PageScripts(props: ScriptsProps) {
  // Called as a function, not rendered, to rewrite its output; its hooks run as this component's.
  const rendered = Scripts(props);
  // Only the server's HTML counts: the browser keeps it while hydrating, then `<Scripts>` renders
  // nothing. The client build carries no markup or bootstrap code for it.
  const server = import.meta.env.SSR;
  const deferred: string[] = [];
  const kept: ReactElement[] = [];
  let moduleScript: string | null = null;
  const visit = (node: ReactNode) => {
    Children.forEach(node, (child) => {
      if (!isValidElement<ElementProps>(child)) return;
      const { rel, href, type, children, dangerouslySetInnerHTML } = child.props;
      if (child.type === "link" && rel === "modulepreload" && href) {
        if (server) deferred.push(`<link rel="modulepreload" href="${escapeAttribute(href)}">`);
      } else if (child.type === "script" && type === "module") {
        moduleScript = dangerouslySetInnerHTML?.__html ?? "";
      } else if (typeof child.type === "symbol") visit(children);
      else kept.push(child);
    });
  };
  visit(rendered);
  if (moduleScript === null) return rendered;
  if (server) {
    const nonce = props.nonce ? ` nonce="${escapeAttribute(props.nonce)}"` : "";
    deferred.push(`<script type="module"${nonce}>${moduleScript}</script>`);
  }
  return createElement(
    Fragment,
    null,
    ...kept,
    <template
      key="deferred"
      id={TEMPLATE_ID}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: React Router's own preloads and bootstrap
      dangerouslySetInnerHTML={{ __html: server ? deferred.join("") : "" }}
    />,
    <script
      key="after-paint"
      nonce={props.nonce}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed script, no data in it
      dangerouslySetInnerHTML={{ __html: server ? AFTER_FIRST_PAINT : " " }}
    />,
  );
}

const TEMPLATE_ID = "page-scripts";

/**
 * Once the first frame is painted (a task after its animation frame), the template's preloads
 * and module script go into the head; a script cloned out of a template runs when inserted. A
 * page opened in a hidden tab paints no frame (no animation frames either): it loads them at once.
 */
const AFTER_FIRST_PAINT = `(function(t){if(!t)return;function go(){document.head.appendChild(t.content.cloneNode(true))}if(document.visibilityState==="hidden")go();else requestAnimationFrame(function(){setTimeout(go,0)})})(document.getElementById("${TEMPLATE_ID}"));`;

const escapeAttribute = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
