import { Link } from "react-router";
import { SocialIcon } from "#app/components/landing/icons";
import { SOCIAL_LINKS } from "#app/components/landing/studio";
import { STUDIO } from "#app/domain/studio";
import { VideoLink } from "#app/components/landing/video-modal";
import { VideoThumb } from "#app/components/landing/video-thumb";
import { Logo } from "#app/components/logo";
import { SectionLink } from "#app/components/site-nav";

const QUICK_LINKS = [
  { id: "features", label: "Studio Features" },
  { id: "who-is-it-for", label: "Who It's For" },
  { id: "booking", label: "Book Now" },
] as const;

const linkClass = "rounded text-white/85 underline-offset-4 hover:text-white hover:underline";

/** docs/product.md "The studio and its visitors", "Screens". */
export function SiteFooter() {
  return (
    <footer className="bg-night text-white">
      <div className="mx-auto grid max-w-6xl gap-12 px-5 pt-16 pb-10 sm:px-8 md:grid-cols-12 md:gap-8 md:pt-20">
        <div className="md:col-span-4">
          <Link
            to="/"
            className="inline-flex items-center gap-2 rounded-md font-display text-lg font-bold"
          >
            <Logo />
            <span>{STUDIO.name}</span>
          </Link>
          <p className="mt-4 max-w-xs text-[0.9375rem] leading-relaxed text-white/80">
            A podcast and video studio for Atlanta's entrepreneurs, creators, educators and
            community leaders. Open 24/7.
          </p>
          <address className="mt-6 space-y-2 text-[0.9375rem] not-italic">
            <p className="text-white/85">
              {STUDIO.street}
              <br />
              {STUDIO.locality}
            </p>
            <p>
              <a href={`mailto:${STUDIO.email}`} className={linkClass}>
                {STUDIO.email}
              </a>
            </p>
            <p>
              <a href={STUDIO.phoneHref} className={linkClass}>
                {STUDIO.phone}
              </a>
            </p>
          </address>
          <ul className="mt-6 flex gap-3">
            {SOCIAL_LINKS.map((social) => (
              <li key={social.network}>
                <a
                  href={social.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="flex size-11 items-center justify-center rounded-full bg-white/10 text-white hover:bg-brand-600"
                >
                  <SocialIcon network={social.network} />
                  <span className="sr-only">
                    {STUDIO.name} on {social.label} (opens in a new tab)
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </div>

        <nav aria-labelledby="footer-links-title" className="md:col-span-3">
          <h2
            id="footer-links-title"
            className="text-sm font-bold tracking-[0.18em] text-white/70 uppercase"
          >
            Quick links
          </h2>
          <ul className="mt-5 space-y-3 text-[0.9375rem]">
            {QUICK_LINKS.map((link) => (
              <li key={link.id}>
                <SectionLink id={link.id} className={linkClass}>
                  {link.label}
                </SectionLink>
              </li>
            ))}
            <li>
              <Link to="/dashboard" className={linkClass}>
                Dashboard
              </Link>
            </li>
          </ul>
        </nav>

        <div className="md:col-span-5">
          <h2 className="text-sm font-bold tracking-[0.18em] text-white/70 uppercase">
            Take the tour
          </h2>
          <VideoLink video="promo" className="group mt-5 block rounded-2xl">
            <VideoThumb label="Watch the promo video" caption="The studio in 9 seconds" />
          </VideoLink>
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-5 py-6 text-sm text-white/70 sm:px-8 md:flex-row md:justify-between">
          <p>
            © {new Date().getFullYear()} {STUDIO.name}. All rights reserved.
          </p>
          <p>An Atlanta Entrepreneur Innovation Center and Peach State Media partnership.</p>
        </div>
      </div>
    </footer>
  );
}
