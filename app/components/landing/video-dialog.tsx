import { useEffect, useId, useRef } from "react";
import { type VideoKey, videoFile } from "#app/components/landing/studio";
import { VIDEOS } from "#app/components/landing/videos";
import { Icon } from "#app/components/landing/icons";

export function VideoDialog({ video, onClose }: { video: VideoKey; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const transcriptId = useId();
  const { title, transcript } = VIDEOS[video];

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click only closes on the backdrop; the keyboard closes with Escape, natively.
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={transcriptId}
      // Escape and the close button both end in the native close event.
      onClose={onClose}
      // A click on the backdrop lands on the <dialog> itself; clicks inside land on children.
      onClick={(event) => {
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
      className="video-dialog m-auto w-[min(56rem,calc(100vw-2rem))] max-w-none overflow-visible bg-transparent p-0 text-white backdrop:bg-night/85 backdrop:backdrop-blur-sm"
    >
      <div className="max-h-[calc(100dvh-2rem)] overflow-y-auto rounded-2xl bg-night-soft shadow-2xl ring-1 ring-white/10">
        <div className="flex items-center justify-between gap-4 px-5 py-3">
          <h2 id={titleId} className="font-display text-base font-semibold sm:text-lg">
            {title}
          </h2>
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            className="-mr-2 rounded-full p-2 text-white/90 hover:bg-white/10 hover:text-white"
          >
            <Icon name="close" className="size-6" />
            <span className="sr-only">Close video</span>
          </button>
        </div>
        <div className="aspect-video bg-black">
          <video
            className="size-full"
            src={videoFile(video)}
            controls
            autoPlay
            playsInline
            preload="none"
          >
            <track kind="captions" src={videoFile(video, "vtt")} srcLang="en" label="English" />
          </video>
        </div>
        <p id={transcriptId} className="px-5 py-3 text-sm text-white/80">
          <span className="font-semibold text-white">Transcript: </span>
          {transcript}
        </p>
      </div>
    </dialog>
  );
}
