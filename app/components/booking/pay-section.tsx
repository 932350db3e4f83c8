import { Link } from "react-router";
import { PaymentForm } from "#app/components/booking/card-form";
import type { FormReply } from "#app/components/ui/use-schema-form";

/** docs/product.md "Complete Your Payment", for a session and a series alike. */
export function PaySection({
  payable,
  problem,
  provider,
  total,
  result,
  testCards,
}: {
  payable: boolean;
  problem: string | null;
  provider: "card-form" | "hosted";
  total: number;
  result: FormReply;
  testCards: boolean;
}) {
  return (
    <section aria-labelledby="pay-title" className="card h-fit p-6 sm:p-8">
      <h2 id="pay-title" className="font-display text-xl font-bold">
        {payable ? "Pay by card" : "Nothing to pay here"}
      </h2>
      {payable ? (
        <PaymentForm provider={provider} total={total} result={result} testCards={testCards} />
      ) : (
        <>
          <p className="mt-3 text-ink-soft">{problem}</p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to="/dashboard" className="btn-primary">
              View My Dashboard
            </Link>
            <Link to="/#booking" className="btn-secondary text-ink">
              Book a session
            </Link>
          </div>
        </>
      )}
    </section>
  );
}
