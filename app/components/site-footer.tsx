import { SectionLink } from "./site-nav";

/** Placeholder replaced by the landing-page work (quick links, address, contact, socials). */
export function SiteFooter() {
  return (
    <footer className="bg-night text-white">
      <div className="section">
        <SectionLink id="features">Studio Features</SectionLink>
      </div>
    </footer>
  );
}
