import { getFormProps } from "@conform-to/react";
import { useMemo } from "react";
import { Form, useNavigation } from "react-router";
import { cardFormSchema, formatExpiry, SANDBOX_CARDS, studioMonth } from "#app/domain/card";
import { formatDollars } from "#app/domain/pricing";
import { FormErrors } from "#app/components/ui/error-list";
import { Field } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { type FormReply, useSchemaForm } from "#app/components/ui/use-schema-form";

/** The sandbox's card form or a button to Stripe's checkout (docs/product.md "Payment"). */
export function PaymentForm({
  provider,
  total,
  result,
  testCards,
}: {
  provider: "card-form" | "hosted";
  total: number;
  result: FormReply;
  testCards: boolean;
}) {
  return provider === "hosted" ? (
    <HostedCheckout total={total} />
  ) : (
    <CardForm total={total} result={result} testCards={testCards} />
  );
}

function HostedCheckout({ total }: { total: number }) {
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" className="mt-4">
      <p className="text-ink-soft">
        You pay on Stripe's secure checkout page and come back here when it is done.
      </p>
      <button type="submit" className="btn-primary mt-6 w-full" disabled={busy}>
        {busy ? "Opening checkout…" : `Pay ${formatDollars(total)} securely`}
      </button>
    </Form>
  );
}

function CardForm({
  total,
  result,
  testCards,
}: {
  total: number;
  result: FormReply;
  testCards: boolean;
}) {
  const schema = useMemo(() => cardFormSchema(studioMonth(Date.now())), []);
  const [form, fields] = useSchemaForm({
    id: "card-form",
    schema,
    lastResult: result,
    defaultValue: { paymentMethod: "card" },
  });
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
      {testCards ? (
        <div className="rounded-xl bg-paper p-4 text-sm ring-1 ring-line">
          <p className="font-semibold">Test mode: no real card is charged.</p>
          <p className="mt-1 text-ink-soft">
            Use {groupDigits(SANDBOX_CARDS.success)} to pay, {groupDigits(SANDBOX_CARDS.declined)}{" "}
            to see a decline; any future expiry and any 3-digit CVV.
          </p>
        </div>
      ) : null}
      <HydratedField />
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="paymentMethod" value="card" />
      <Field label="Cardholder name" meta={fields.cardName} type="text" autoComplete="cc-name" />
      <Field
        label="Card number"
        meta={fields.cardNumber}
        type="text"
        inputMode="numeric"
        autoComplete="cc-number"
        maxLength={19}
        placeholder="1234 5678 9012 3456"
      />
      <div className="grid grid-cols-2 gap-4">
        <ExpiryField meta={fields.expirationDate} />
        <Field
          label="CVV"
          meta={fields.cvv}
          type="password"
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={3}
        />
      </div>
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {busy ? "Paying…" : `Pay ${formatDollars(total)}`}
      </button>
    </Form>
  );
}

function ExpiryField({
  meta,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: conform field metadata.
  meta: any;
}) {
  return (
    <Field
      label="Expiration date"
      meta={meta}
      type="text"
      hint="Month and year, MM/YY"
      hintClassName="sr-only"
      inputMode="numeric"
      autoComplete="cc-exp"
      maxLength={5}
      placeholder="MM/YY"
      onInput={(event) => {
        const input = event.currentTarget;
        input.value = formatExpiry(input.value);
      }}
    />
  );
}

function groupDigits(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, "$1 ");
}
