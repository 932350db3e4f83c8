import { lazy, Suspense, useRef, useState } from "react";
import { type VideoKey, videoFile } from "#app/components/landing/studio";

/**
 * Without JavaScript a plain link the browser plays itself. The <video> exists only while the
 * dialog is open, so nothing downloads before it is asked for; the dialog's code comes on the
 * first click (decision 0094).
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
