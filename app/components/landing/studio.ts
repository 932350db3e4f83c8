/** Apart from content.ts, so the footer (on every page) does not pull the landing copy in. */

export { HOURLY_RATES as RATES } from "#app/domain/rates";

export const SOCIAL_LINKS = [
  { network: "instagram", label: "Instagram", href: "https://www.instagram.com/example" },
  { network: "youtube", label: "YouTube", href: "https://www.youtube.com/@example" },
  { network: "linkedin", label: "LinkedIn", href: "https://www.linkedin.com/company/example" },
] as const;

/** public/videos/<key>.mp4, captions beside it as <key>.vtt. */
export type VideoKey = "promo" | "testimonial";
export const videoFile = (video: VideoKey, kind: "mp4" | "vtt" = "mp4") =>
  `/videos/${video}.${kind}`;
