import {
  type DefaultValue,
  type Submission,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { conformZodMessage, getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { keepAsTyped, z } from "#app/domain/zod";

export type FormReply = SubmissionResult<string[]> | null | undefined;

/** The route passes its own typed action data down to the forms. */
export type IntentReply = { intent: string | null; result: FormReply };

export function replyTo(answer: IntentReply | null | undefined, intent: string): FormReply {
  return answer?.intent === intent ? answer.result : undefined;
}

/** conform reads an error list of null as "not known here" and lets the post go on. */
const leaveToServer = z.unknown().superRefine((_value, context) => {
  context.addIssue({ code: "custom", message: conformZodMessage.VALIDATION_UNDEFINED });
});

/** A schema that transforms the whole object is read through to the object the fields belong to. */
export function schemaConstraint(schema: z.ZodType) {
  let fields: z.core.$ZodType = schema;
  while (fields instanceof z.ZodPipe && fields.out instanceof z.ZodTransform) fields = fields.in;
  return getZodConstraint(fields);
}

/** Every form's schema is built once at module level, so its constraints are read once, not per render. */
const constraints = new WeakMap<z.ZodType, ReturnType<typeof schemaConstraint>>();

function constraintOf(schema: z.ZodType) {
  let known = constraints.get(schema);
  if (!known) {
    known = schemaConstraint(schema);
    constraints.set(schema, known);
  }
  return known;
}

type Options<Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>> = {
  /** Its fields' ids, error ids and hint ids start with it. */
  id: string;
  schema: Schema;
  lastResult: FormReply;
  defaultValue?: DefaultValue<z.input<Schema>>;
  /** Others (Apply, Remove) post as they are. */
  checkedIntent?: string;
  /** docs/product.md "Messages": "server" forms post every submit so the reply brings the toast. */
  submitCheckedBy?: "browser" | "server";
  /** A form that posts through JavaScript: called for a real submit only, never conform's intents. */
  onSubmit?: Parameters<typeof useForm<z.input<Schema>, z.output<Schema>, string[]>>[0]["onSubmit"];
};

/** conform renders the form `noValidate`, so the server's messages show without JavaScript too. */
export function useSchemaForm<
  Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>,
>({
  id,
  schema,
  lastResult,
  defaultValue,
  checkedIntent,
  submitCheckedBy = "browser",
  onSubmit,
}: Options<Schema>) {
  return useForm<z.input<Schema>, z.output<Schema>, string[]>({
    id,
    onSubmit,
    lastResult,
    defaultValue,
    constraint: constraintOf(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }): Submission<z.input<Schema>, string[], z.output<Schema>> => {
      // conform checks every submit whatever formNoValidate says: the server checks the secondary buttons.
      if (checkedIntent !== undefined && formData.get("intent") !== checkedIntent) {
        const unchecked = parseWithZod(formData, { schema: keepAsTyped });
        return unchecked as unknown as Submission<z.input<Schema>, string[], z.output<Schema>>;
      }
      return parseWithZod(formData, {
        // conform's intent is null for a real submit; the marker schema says "not known here".
        schema: (intent) =>
          intent === null && submitCheckedBy === "server"
            ? (leaveToServer as unknown as Schema)
            : schema,
      });
    },
  });
}
