/** The lines of a price breakdown (a `<dl>`), shared by the booking form and the checkout. */
export function PriceLine({ label, amount }: { label: string; amount: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt>{label}</dt>
      <dd className="shrink-0 text-right tabular-nums">{amount}</dd>
    </div>
  );
}

export function PriceTotal({ amount }: { amount: string }) {
  return (
    <div className="flex justify-between border-t border-line pt-3 font-display text-xl font-bold">
      <dt>Total</dt>
      <dd className="tabular-nums">{amount}</dd>
    </div>
  );
}
