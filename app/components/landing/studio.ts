/**
 * The studio's rates, social links and videos: shared by the landing page and the site footer
 * (which is on every page), so it is kept apart from the landing-only copy in content.ts and
 * does not pull that into other pages' JavaScript. The studio's own facts (name, address,
 * phone) are the domain's: app/domain/studio.ts.
 */

// One place for the rates: the pricing rules the server charges with.
export { HOURLY_RATES as RATES } from "#app/domain/pricing";

export const SOCIAL_LINKS = [
  { network: "instagram", label: "Instagram", href: "https://www.instagram.com/example" },
  { network: "youtube", label: "YouTube", href: "https://www.youtube.com/@example" },
  { network: "linkedin", label: "LinkedIn", href: "https://www.linkedin.com/company/example" },
] as const;

export const VIDEOS = {
  promo: {
    src: "/videos/promo.mp4",
    captions: "/videos/promo.vtt",
    title: "ATL Creator Studio in 9 seconds",
    transcript:
      "Music only. On screen: ATL Creator Studio, podcast and video studio in Atlanta. Pro mics, 4K cameras, studio lighting, an in-house engineer at every session. Open 24/7, sessions from 2 hours.",
  },
  testimonial: {
    src: "/videos/testimonial.mp4",
    captions: "/videos/testimonial.vtt",
    title: "Creator stories: from idea to first season",
    transcript:
      "Music only. On screen: “We walked in with an idea… and left with our first season.” A small-business founder and podcast host. Your show starts here.",
  },
} as const;
export type VideoKey = keyof typeof VIDEOS;
