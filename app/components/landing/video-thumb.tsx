import { LineIcon, PLAY_PATH } from "#app/components/landing/line-icon";

/** No poster image to download; apart from video-modal.tsx, so the hero's link leaves it out. */
export function VideoThumb({ label, caption }: { label: string; caption: string }) {
  return (
    <span className="video-thumb relative block aspect-video overflow-hidden rounded-2xl bg-night text-white ring-1 ring-white/10">
      <svg
        aria-hidden="true"
        viewBox="0 0 160 90"
        preserveAspectRatio="none"
        className="absolute inset-x-0 bottom-0 h-1/3 w-full text-brand-500/50"
        fill="currentColor"
      >
        <path d="M0 90V62c8 0 8-14 16-14s8 20 16 20 8-28 16-28 8 34 16 34 8-18 16-18 8 10 16 10 8-24 16-24 8 16 16 16 8-8 16-8 8 8 16 8v32Z" />
      </svg>
      <span className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-4 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-brand-600 shadow-lg ring-8 ring-brand-500/25 transition-transform group-hover:scale-110">
          <LineIcon path={PLAY_PATH} className="ml-0.5 size-6" filled />
        </span>
        <span className="font-display text-base font-semibold">{label}</span>{" "}
        <span className="hidden text-sm text-white/80 min-[400px]:block">{caption}</span>
      </span>
    </span>
  );
}
