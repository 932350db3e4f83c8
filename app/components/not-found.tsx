import { Link } from "react-router";

/** docs/product.md "Screens"; `headingLevel` 2 inside a layout, whose own h1 is on the page. */
export function NotFound({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-6 py-32 text-center">
      <p className="font-display text-7xl font-bold text-brand-600" aria-hidden="true">
        404
      </p>
      <Heading className="mt-4 font-display text-3xl font-bold">404 Page Not Found</Heading>
      <p className="mt-4 text-ink-soft">
        The page you are looking for does not exist or has moved.
      </p>
      <Link to="/" className="btn-primary mt-8">
        Back to the home page
      </Link>
    </section>
  );
}
