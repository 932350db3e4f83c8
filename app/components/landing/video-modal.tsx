import { lazy, Suspense, useRef, useState } from "react";
import { type VideoKey, videoFile } from "#app/components/landing/studio";

/**
 * A link to a video file that opens it in a modal <dialog>. Without JavaScript it is a plain
 * link and the browser plays the file itself. The <video> element is only created when the
 * dialog opens, so nothing is downloaded before the visitor asks for it, and removed when it
 * closes, which also stops playback. The dialog's code is fetched on the first click
 * (decision 0094): no page's first load carries it.
 */
const VideoDialog = lazy(() =>
  import("#app/components/landing/video-dialog").then((module) => ({
    default: module.VideoDialog,
  })),
);

export function VideoLink({
  video,
  className,
  children,
}: {
  video: VideoKey;
  className?: string;
  children: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLAnchorElement>(null);
  return (
    <>
      <a
        ref={trigger}
        href={videoFile(video)}
        className={className}
        onClick={(event) => {
          // Let "open in new tab" and similar gestures do what the visitor asked for.
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        {children}
      </a>
      {/* Rendered beside the link, but showModal() lifts it into the top layer. */}
      {open ? (
        <Suspense fallback={null}>
          <VideoDialog
            video={video}
            onClose={() => {
              setOpen(false);
              trigger.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
