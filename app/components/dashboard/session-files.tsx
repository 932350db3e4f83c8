/** Plain links and native players: the same without JavaScript. */
export type CustomerFileRow = {
  id: number;
  name: string;
  kind: string;
  size: string;
  delivered: string;
  expires: string | null;
  url: string;
  playable: boolean;
};

export type CustomerFilesData = {
  /** Recorded or further along: files may come. */
  expected: boolean;
  files: CustomerFileRow[];
};

export function YourFiles({ data, bookingId }: { data: CustomerFilesData; bookingId: number }) {
  if (data.files.length === 0 && !data.expected) return null;
  const headingId = `files-${bookingId}`;
  return (
    <section aria-labelledby={headingId} className="mt-6 text-[0.9375rem]">
      <h3 id={headingId} className="font-display text-base font-bold">
        Your files
      </h3>
      {data.files.length === 0 ? (
        <p className="mt-2 text-ink-soft">
          The studio is preparing your files. We will e-mail you when they are ready to download
          here.
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-line rounded-xl ring-1 ring-line">
          {data.files.map((file) => (
            <li key={file.id} className="space-y-2 p-3">
              <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
                <div className="min-w-0">
                  <p className="font-semibold [overflow-wrap:anywhere]">{file.name}</p>
                  <p className="text-sm text-ink-soft">
                    {file.kind} · {file.size} · delivered {file.delivered}
                  </p>
                  {file.expires ? (
                    <p className="text-sm text-ink-soft">Available until {file.expires}</p>
                  ) : null}
                </div>
                {/* A file, not a page: the browser downloads it rather than the router navigating. */}
                <a href={file.url} download className="btn-secondary px-4 py-2 text-sm text-ink">
                  Download<span className="sr-only"> {file.name}</span>
                </a>
              </div>
              {file.playable ? (
                // biome-ignore lint/a11y/useMediaCaption: the studio's own recordings, delivered as files; no captions exist for them.
                <audio
                  controls
                  preload="none"
                  src={file.url}
                  aria-label={`Play ${file.name}`}
                  className="w-full"
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
