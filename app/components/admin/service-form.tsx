import { getFormProps } from "@conform-to/react";
import { Form, Link, useNavigation } from "react-router";
import { serviceSchema } from "#app/domain/services";
import { Field, TextareaField } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { type FormReply, useSchemaForm } from "#app/components/ui/use-schema-form";

export type ServiceFormValues = {
  name: string;
  description: string;
  price: string;
  duration: string;
};

/** The server answers every submit (docs/product.md "Validation"); fields are checked as left. */
export function ServiceForm({
  initial,
  reply,
  submitLabel,
  closeTo,
}: {
  initial: ServiceFormValues;
  reply: FormReply;
  submitLabel: string;
  closeTo: string;
}) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useSchemaForm({
    id: "service",
    schema: serviceSchema,
    lastResult: reply,
    defaultValue: initial,
    submitCheckedBy: "server",
  });
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className="space-y-4">
      <HydratedField />
      <Field label="Name" meta={fields.name} type="text" autoComplete="off" />
      <TextareaField label="Description" meta={fields.description} rows={3} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Price"
          meta={fields.price}
          hint="Whole dollars."
          type="number"
          min="1"
          step="1"
          inputMode="numeric"
        />
        <Field
          label="Duration (optional)"
          meta={fields.duration}
          hint="Whole minutes."
          type="number"
          min="1"
          step="1"
          inputMode="numeric"
        />
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
