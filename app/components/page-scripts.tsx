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
 * React Router's `<Scripts>`, its JavaScript fetched after the first paint (decision 0094): the
 * preloads and the module script go into an inert `<template>`, put into the head once the first
 * frame is painted, so the stylesheet no longer shares the line with ~120 KB of JavaScript.
 * `<Scripts>` has no option for it, hence the rewrite; its context script stays first.
 */
export function PageScripts(props: ScriptsProps) {
  // Called as a function, not rendered, to rewrite its output; its hooks run as this component's.
  const rendered = Scripts(props);
  // Only the server's HTML counts: the client build carries no markup or bootstrap code for it.
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

/** A hidden tab paints no frame: it loads them at once. */
const AFTER_FIRST_PAINT = `(function(t){if(!t)return;function go(){document.head.appendChild(t.content.cloneNode(true))}if(document.visibilityState==="hidden")go();else requestAnimationFrame(function(){setTimeout(go,0)})})(document.getElementById("${TEMPLATE_ID}"));`;

const escapeAttribute = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
