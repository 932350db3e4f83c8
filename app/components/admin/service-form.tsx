import { Form, Link, useNavigation } from "react-router";
import type { ServiceFormReply, ServiceFormValues } from "#app/domain/services";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { FieldError } from "#app/components/admin/catalog-ui";

/**
 * The fields of Add Service and Edit. The server's messages are the spec's, so the browser's
 * own constraint bubbles are off (noValidate): the same texts show with and without JavaScript.
 */
export function ServiceForm({
  initial,
  reply,
  submitLabel,
  closeTo,
}: {
  initial: ServiceFormValues;
  reply: ServiceFormReply | undefined;
  submitLabel: string;
  closeTo: string;
}) {
  const busy = useNavigation().state === "submitting";
  const values = reply?.values ?? initial;
  const errors = reply?.errors ?? {};
  const props = (field: keyof ServiceFormValues, hint?: string) => ({
    id: `service-${field}`,
    name: field,
    defaultValue: values[field],
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby":
      [hint, errors[field] ? `service-${field}-error` : null].filter(Boolean).join(" ") ||
      undefined,
    className: "field-input",
  });
  return (
    <Form method="post" noValidate preventScrollReset className="space-y-4">
      <HydratedField />
      <div>
        <label htmlFor="service-name" className="field-label">
          Name
        </label>
        <input {...props("name")} type="text" autoComplete="off" />
        <FieldError id="service-name-error" error={errors.name} />
      </div>
      <div>
        <label htmlFor="service-description" className="field-label">
          Description
        </label>
        <textarea {...props("description")} rows={3} />
        <FieldError id="service-description-error" error={errors.description} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="service-price" className="field-label">
            Price
          </label>
          <p id="service-price-hint" className="mt-0.5 text-sm text-ink-soft">
            Whole dollars.
          </p>
          <input
            {...props("price", "service-price-hint")}
            type="number"
            min="1"
            step="1"
            inputMode="numeric"
          />
          <FieldError id="service-price-error" error={errors.price} />
        </div>
        <div>
          <label htmlFor="service-duration" className="field-label">
            Duration (optional)
          </label>
          <p id="service-duration-hint" className="mt-0.5 text-sm text-ink-soft">
            Whole minutes.
          </p>
          <input
            {...props("duration", "service-duration-hint")}
            type="number"
            min="1"
            step="1"
            inputMode="numeric"
          />
          <FieldError id="service-duration-error" error={errors.duration} />
        </div>
      </div>
      <div className="flex flex-col gap-3 pt-2 sm:flex-row-reverse">
        <button type="submit" className="btn-primary sm:flex-1" disabled={busy}>
          {submitLabel}
        </button>
        <Link to={closeTo} preventScrollReset className="btn-secondary text-ink sm:flex-1">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
