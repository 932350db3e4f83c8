import {
  type DefaultValue,
  type Submission,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { z } from "#app/domain/zod";

export type FormReply = SubmissionResult<string[]> | null | undefined;

/**
 * One zod schema drives a form's native constraints (so it validates without JavaScript),
 * the browser's checks and the server's reply: the architecture's one-schema-per-form rule.
 */
export function useSchemaForm<
  Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>,
>(
  id: string,
  schema: Schema,
  result: FormReply,
  defaultValue?: DefaultValue<z.input<Schema>>,
  /** Only submits with this `intent` are checked; others (Apply, Remove) post as they are. */
  checkedIntent?: string,
) {
  return useForm<z.input<Schema>, z.output<Schema>, string[]>({
    id,
    lastResult: result,
    defaultValue,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }): Submission<z.input<Schema>, string[], z.output<Schema>> => {
      // conform checks every submit, whatever the button's formNoValidate says: let the
      // secondary buttons through unchecked (the server checks what each one needs).
      if (checkedIntent !== undefined && formData.get("intent") !== checkedIntent) {
        const unchecked = parseWithZod(formData, { schema: z.object({}) });
        return unchecked as unknown as Submission<z.input<Schema>, string[], z.output<Schema>>;
      }
      return parseWithZod(formData, { schema });
    },
  });
}
