import { isRouteErrorResponse, Link, useLocation, useRouteError } from "react-router";
import { ConnectionFailure } from "#app/components/connection-failure";
import { NotFound } from "#app/components/not-found";

/**
 * Only our own words: the error's message, which may come from a library, is never shown. The
 * layouts keep their frame around it, so an error in one tab leaves the navigation in place.
 */
export function GeneralErrorBoundary({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 404) return <NotFound headingLevel={headingLevel} />;
  const Heading = headingLevel === 1 ? "h1" : "h2";
  if (error instanceof ConnectionFailure) {
    return <Unreachable heading={Heading} failure={error} />;
  }
  return (
    <section className="mx-auto max-w-xl px-6 py-32 text-center">
      <Heading className="font-display text-3xl font-bold">
        {status === 403 ? "Request refused" : "Something went wrong"}
      </Heading>
      <p className="mt-4 text-ink-soft">
        {status === 403
          ? "This request was refused. Please go back and try again from the site."
          : "Sorry, we could not show this page. Please try again in a moment."}
      </p>
      <a href="/" className="btn-primary mt-8 inline-flex">
        Back to the home page
      </a>
    </section>
  );
}

function Unreachable({
  heading: Heading,
  failure,
}: {
  heading: "h1" | "h2";
  failure: ConnectionFailure;
}) {
  const { pathname, search } = useLocation();
  return (
    <section role="alert" className="mx-auto max-w-xl px-6 py-32 text-center">
      {/* The page's own meta did not load with it. */}
      <title>{`${failure.toast.message} | ATL Creator Studio`}</title>
      <Heading className="font-display text-3xl font-bold">{failure.toast.message}</Heading>
      <p className="mt-4 text-ink-soft">{failure.toast.description}</p>
      <Link to={`${pathname}${search}`} className="btn-primary mt-8 inline-flex">
        Try again
      </Link>
    </section>
  );
}
