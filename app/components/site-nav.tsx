import { type RefObject, useEffect, useRef, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import type { PublicUser } from "#app/domain/user";
import { SUPPORT_FORM_URL } from "#app/components/chat/support-form-url";
import { Logo } from "#app/components/logo";
import { useDetailsUpgrade } from "#app/components/ui/use-details-upgrade";

export const SECTION_LINKS = [
  { id: "features", label: "Features" },
  { id: "who-is-it-for", label: "Who It's For" },
  { id: "faq", label: "FAQ" },
  { id: "booking", label: "Book Now" },
] as const;

/**
 * Closes a <details> menu on Escape, on a click outside it and after navigation. The menus
 * are <details> so they open and close without JavaScript; this only adds the polish.
 */
function useDisclosureMenu() {
  const ref = useRef<HTMLDetailsElement>(null);
  const { key: locationKey } = useLocation();
  // After a navigation, not when the page hydrates: a menu opened before that stays open
  // (the page's JavaScript comes after its first paint, decision 0094).
  const shownAt = useRef(locationKey);
  useEffect(() => {
    if (shownAt.current === locationKey) return;
    shownAt.current = locationKey;
    if (ref.current) ref.current.open = false;
  }, [locationKey]);
  useEffect(() => {
    const close = (event: Event) => {
      const menu = ref.current;
      if (!menu?.open) return;
      if (event instanceof KeyboardEvent) {
        if (event.key !== "Escape") return;
        menu.open = false;
        menu.querySelector("summary")?.focus();
      } else if (!menu.contains(event.target as Node)) {
        menu.open = false;
      }
    };
    document.addEventListener("keydown", close);
    document.addEventListener("click", close);
    return () => {
      document.removeEventListener("keydown", close);
      document.removeEventListener("click", close);
    };
  }, []);
  return ref;
}

/** docs/product.md "Screens". */
function useScrolledPast(threshold: number) {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > threshold);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, [threshold]);
  return scrolled;
}

export function SiteNav({
  user,
  chatAppId,
}: {
  user: PublicUser | null;
  chatAppId: string | null;
}) {
  const scrolled = useScrolledPast(10);
  const mobileMenu = useDisclosureMenu();
  return (
    <header
      className={`sticky top-0 z-40 border-b border-white/10 text-white transition-colors ${
        scrolled ? "bg-night/85 backdrop-blur-md" : "bg-night"
      }`}
    >
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-5 sm:px-8"
      >
        <Link
          to="/"
          className="flex min-w-0 items-center gap-2 rounded-md font-display text-lg font-bold whitespace-nowrap"
        >
          <Logo className="size-8 shrink-0" />
          <span className="max-[400px]:sr-only">ATL Creator Studio</span>
        </Link>

        <SectionLinks
          className="hidden items-center gap-1 md:flex"
          linkClassName="rounded-full px-3 py-2 text-sm font-medium text-white/90 hover:bg-white/10 hover:text-white"
        />

        <div className="flex items-center gap-2">
          {user ? (
            <AccountMenu user={user} chatAppId={chatAppId} />
          ) : (
            <Link
              to="/auth"
              className="rounded-full bg-white px-4 py-2 text-sm font-semibold whitespace-nowrap text-ink hover:bg-brand-50"
            >
              Sign In
            </Link>
          )}
          <details ref={mobileMenu} className="group md:hidden">
            <summary className="flex cursor-pointer list-none items-center rounded-full p-2 hover:bg-white/10 [&::-webkit-details-marker]:hidden">
              <span className="sr-only">Menu</span>
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="size-6 group-open:hidden"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M4 7h16M4 12h16M4 17h16" strokeLinecap="round" />
              </svg>
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="hidden size-6 group-open:block"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
              </svg>
            </summary>
            <SectionLinks
              className="absolute inset-x-0 top-16 border-b border-white/10 bg-night px-5 py-3 shadow-xl"
              linkClassName="block rounded-lg px-3 py-3 text-base font-medium hover:bg-white/10"
            />
          </details>
        </div>
      </nav>
    </header>
  );
}

function SectionLinks({ className, linkClassName }: { className: string; linkClassName: string }) {
  return (
    <ul className={className}>
      {SECTION_LINKS.map((link) => (
        <li key={link.id}>
          <SectionLink id={link.id} className={linkClassName}>
            {link.label}
          </SectionLink>
        </li>
      ))}
    </ul>
  );
}

/** A real link to /#id, so it works without JavaScript (docs/product.md "Screens"). */
export function SectionLink({
  id,
  className,
  children,
}: {
  id: string;
  className?: string;
  children: React.ReactNode;
}) {
  const location = useLocation();
  return (
    <Link
      to={{ pathname: "/", hash: id }}
      className={className}
      onClick={(event) => {
        if (location.pathname === "/") return;
        // From another route: go home, then scroll once the landing page has rendered.
        window.setTimeout(
          () => document.getElementById(id)?.scrollIntoView({ behavior: "smooth" }),
          100,
        );
        void event;
      }}
    >
      {children}
    </Link>
  );
}

const ACCOUNT_LINKS = [
  { to: "/dashboard", label: "My Account" },
  { to: "/dashboard?tab=bookings", label: "My Sessions" },
  { to: "/dashboard?tab=profile", label: "Profile Settings" },
] as const;

const ACCOUNT_BUTTON =
  "flex cursor-pointer list-none items-center gap-2 rounded-full bg-white/10 py-1.5 pr-3 pl-1.5 text-sm font-semibold hover:bg-white/20 [&::-webkit-details-marker]:hidden";

type EnhancedMenu = typeof import("#app/components/account-menu").AccountMenu;

/** The Menu is loaded once the page runs, so no first load carries it (decision 0094's budget). */
function useEnhancedMenu(ref: RefObject<HTMLDetailsElement | null>) {
  const [menu, setMenu] = useState<EnhancedMenu | null>(null);
  useEffect(() => {
    let live = true;
    void import("#app/components/account-menu").then(({ AccountMenu }) => {
      if (live) setMenu(() => AccountMenu);
    });
    return () => {
      live = false;
    };
  }, []);
  return useDetailsUpgrade(ref, menu !== null) ? menu : null;
}

function AccountMenu({ user, chatAppId }: { user: PublicUser; chatAppId: string | null }) {
  const menu = useDisclosureMenu();
  const Enhanced = useEnhancedMenu(menu);
  const fullName = `${user.firstName} ${user.lastName}`;
  const badge = (
    <>
      <span
        aria-hidden="true"
        className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-600 text-xs font-bold"
      >
        {user.firstName.charAt(0).toUpperCase()}
        {user.lastName.charAt(0).toUpperCase()}
      </span>
      <span className="max-w-32 truncate max-sm:sr-only">{fullName}</span>
      <span className="sr-only">account menu</span>
    </>
  );
  const header = (
    <div className="border-b border-line px-4 py-3">
      <p className="truncate font-semibold">{fullName}</p>
      <p className="truncate text-sm text-ink-soft">{user.businessName || "Personal Account"}</p>
    </div>
  );
  if (Enhanced) {
    return (
      <Enhanced
        badge={badge}
        header={header}
        links={ACCOUNT_LINKS}
        chatAppId={chatAppId}
        buttonClassName={ACCOUNT_BUTTON}
      />
    );
  }
  return (
    <details ref={menu} className="relative">
      <summary className={ACCOUNT_BUTTON}>{badge}</summary>
      <div className="absolute right-0 mt-2 w-64 overflow-hidden rounded-xl bg-white text-ink shadow-2xl ring-1 ring-black/10">
        {header}
        <ul className="py-1 text-sm">
          {ACCOUNT_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="block px-4 py-2.5 hover:bg-paper">
                {link.label}
              </Link>
            </li>
          ))}
          <li>
            <Link to={SUPPORT_FORM_URL} className="block px-4 py-2.5 hover:bg-paper">
              Help
            </Link>
          </li>
          <li className="border-t border-line">
            {/* A fetcher's post: if it gets no answer, the page stays (connection-failure.ts). */}
            <Form method="post" action="/logout" navigate={false}>
              <button type="submit" className="block w-full px-4 py-2.5 text-left hover:bg-paper">
                Logout
              </button>
            </Form>
          </li>
        </ul>
      </div>
    </details>
  );
}
