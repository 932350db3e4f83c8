import * as Headless from "@headlessui/react";
import type { ReactNode } from "react";
import { Link, useSubmit } from "react-router";
import { HelpLink } from "#app/components/chat/help-link";

const ITEM = "block w-full px-4 py-2.5 text-left hover:bg-paper data-focus:bg-paper";

/** The account menu once the page runs, in place of site-nav.tsx's <details>: arrow keys, Escape. */
export function AccountMenu({
  badge,
  header,
  links,
  chatAppId,
  buttonClassName,
}: {
  badge: ReactNode;
  header: ReactNode;
  links: readonly { to: string; label: string }[];
  chatAppId: string | null;
  buttonClassName: string;
}) {
  const submit = useSubmit();
  return (
    <Headless.Menu as="div" className="relative">
      <Headless.MenuButton className={buttonClassName}>{badge}</Headless.MenuButton>
      <Headless.MenuItems className="absolute right-0 mt-2 w-64 overflow-hidden rounded-xl bg-white text-ink shadow-2xl ring-1 ring-black/10 focus:outline-none">
        {header}
        <div className="py-1 text-sm">
          {links.map((link) => (
            <Headless.MenuItem key={link.to}>
              <Link to={link.to} className={ITEM}>
                {link.label}
              </Link>
            </Headless.MenuItem>
          ))}
          <Headless.MenuItem>
            <HelpLink chatAppId={chatAppId} className={ITEM}>
              Help
            </HelpLink>
          </Headless.MenuItem>
          <Headless.MenuSeparator className="border-t border-line" />
          {/* Not a form in the menu: the menu closes on the click, and a form taken out of
              the page before its submit would not send it. A fetcher's post, as in the
              <details>: if it gets no answer, the page stays (connection-failure.ts). */}
          <Headless.MenuItem>
            <button
              type="button"
              onClick={() => submit(null, { method: "post", action: "/logout", navigate: false })}
              className={ITEM}
            >
              Logout
            </button>
          </Headless.MenuItem>
        </div>
      </Headless.MenuItems>
    </Headless.Menu>
  );
}
