import type { PublicUser } from "../../models/user.server";

/** Placeholder: the landing sections are built in the landing-page work. */
export function LandingPage({
  user,
  dashboardFirst = false,
}: {
  user: PublicUser | null;
  dashboardFirst?: boolean;
}) {
  const dashboard = user ? (
    <section id="dashboard" className="section">
      <h2>Your dashboard</h2>
    </section>
  ) : null;
  return (
    <>
      {dashboardFirst ? dashboard : null}
      <section className="section">
        <h1 className="font-display text-4xl font-bold">Record your podcast in Atlanta</h1>
      </section>
      <section id="features" className="section">
        <h2>Features</h2>
      </section>
      <section id="who-is-it-for" className="section">
        <h2>Who It's For</h2>
      </section>
      <section id="faq" className="section">
        <h2>FAQ</h2>
      </section>
      <section id="booking" className="section">
        <h2>Book</h2>
      </section>
      {dashboardFirst ? null : dashboard}
    </>
  );
}
