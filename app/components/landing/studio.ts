/**
 * The studio's rates, social links and video files: shared by the landing page and the site footer
 * (which is on every page), so it is kept apart from the landing-only copy in content.ts and
 * does not pull that into other pages' JavaScript. The studio's own facts (name, address,
 * phone) are the domain's: app/domain/studio.ts.
 */

// One place for the rates: the pricing rules the server charges with.
export { HOURLY_RATES as RATES } from "#app/domain/rates";

export const SOCIAL_LINKS = [
  { network: "instagram", label: "Instagram", href: "https://www.instagram.com/example" },
  { network: "youtube", label: "YouTube", href: "https://www.youtube.com/@example" },
  { network: "linkedin", label: "LinkedIn", href: "https://www.linkedin.com/company/example" },
] as const;

/** The studio's videos: public/videos/<key>.mp4, captions beside it as <key>.vtt. */
export type VideoKey = "promo" | "testimonial";
export const videoFile = (video: VideoKey, kind: "mp4" | "vtt" = "mp4") =>
  `/videos/${video}.${kind}`;
