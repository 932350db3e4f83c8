import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import type { BookingStatus } from "#app/domain/booking-status";
import { ActionButtons } from "#app/components/admin/workflow";
import { Field } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { type FormReply, useSchemaForm } from "#app/components/ui/use-schema-form";
import { rowActions } from "#app/domain/admin-workflow";
import { statusChangeSchema, WORKFLOW_LIMITS } from "#app/domain/admin-workflow-forms";

export function StatusForm({
  id,
  status,
  who,
  reply,
}: {
  id: number;
  status: BookingStatus;
  who: string;
  reply: FormReply;
}) {
  const [form, fields] = useSchemaForm({
    id: `status-${id}`,
    schema: statusChangeSchema,
    lastResult: reply,
    submitCheckedBy: "server",
  });
  if (rowActions(status).length === 0) return null;
  return (
    <Form
      method="post"
      preventScrollReset
      {...getFormProps(form)}
      className="flex flex-wrap items-end gap-2"
    >
      <HydratedField />
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="id" value={id} />
      <Field
        label="Note for the history (optional)"
        meta={fields.note}
        type="text"
        maxLength={WORKFLOW_LIMITS.noteMax}
        className="w-full"
      />
      <ActionButtons formId={form.id} id={id} status={status} who={who} />
    </Form>
  );
}
