import type { VideoKey } from "#app/components/landing/studio";

/** What the video dialog shows of each video: only the dialog's chunk carries the texts. */
export const VIDEOS: Record<VideoKey, { title: string; transcript: string }> = {
  promo: {
    title: "ATL Creator Studio in 9 seconds",
    transcript:
      "Music only. On screen: ATL Creator Studio, podcast and video studio in Atlanta. Pro mics, 4K cameras, studio lighting, an in-house engineer at every session. Open 24/7, sessions from 2 hours.",
  },
  testimonial: {
    title: "Creator stories: from idea to first season",
    transcript:
      "Music only. On screen: “We walked in with an idea… and left with our first season.” A small-business founder and podcast host. Your show starts here.",
  },
};
