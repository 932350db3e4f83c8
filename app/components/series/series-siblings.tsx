import { Link } from "react-router";

export type SeriesSiblingsData = {
  heading: string;
  sessions: { id: number; href: string; when: string; status: string; current: boolean }[];
};

/** docs/product.md "Weekly series"; the session shown is marked, not linked. */
export function SeriesSiblings({
  data,
  className,
}: {
  data: SeriesSiblingsData;
  className?: string;
}) {
  return (
    <section aria-labelledby="series-siblings" className={className}>
      <h3 id="series-siblings" className="font-display text-base font-bold">
        {data.heading}
      </h3>
      <ol className="mt-2 space-y-1 text-sm">
        {data.sessions.map((session) => (
          <li key={session.id} className="flex flex-wrap gap-x-2">
            {session.current ? (
              <span aria-current="page" className="font-semibold">
                {session.when} (this session)
              </span>
            ) : (
              <Link to={session.href} className="text-brand-700 underline">
                {session.when}
              </Link>
            )}
            <span className="text-ink-soft">· {session.status}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
