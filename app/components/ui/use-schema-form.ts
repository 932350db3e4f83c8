import { type DefaultValue, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

export type FormReply = SubmissionResult<string[]> | null | undefined;

/**
 * One zod schema drives a form's native constraints (so it validates without JavaScript),
 * the browser's checks and the server's reply: the architecture's one-schema-per-form rule.
 */
export function useSchemaForm<
  Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>,
>(id: string, schema: Schema, result: FormReply, defaultValue?: DefaultValue<z.input<Schema>>) {
  return useForm<z.input<Schema>, z.output<Schema>, string[]>({
    id,
    lastResult: result,
    defaultValue,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}
