import {
  type DefaultValue,
  type Submission,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { conformZodMessage, getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { keepAsTyped, z } from "#app/domain/zod";

/** An action's reply to a form's last post (`submission.reply()`), if it answered this form. */
export type FormReply = SubmissionResult<string[]> | null | undefined;

/**
 * What an action answers a page whose forms are told apart by `intent`: the route passes its
 * own typed action data (Route.ComponentProps["actionData"]) down to the forms.
 */
export type IntentReply = { intent: string | null; result: FormReply };

/** The reply to the form of this `intent`, if the action answered that form. */
export function replyTo(answer: IntentReply | null | undefined, intent: string): FormReply {
  return answer?.intent === intent ? answer.result : undefined;
}

/**
 * A submit the browser leaves to the server: conform reads an error list of null (this
 * marker's) as "not known here" and lets the post go on.
 */
const leaveToServer = z.unknown().superRefine((_value, context) => {
  context.addIssue({ code: "custom", message: conformZodMessage.VALIDATION_UNDEFINED });
});

/**
 * The native constraints (required, lengths, patterns) of a form's fields. conform reads them
 * from the fields' own schemas; a form schema that converts its result as a whole (a
 * transform around the object) is read through to the object the fields belong to.
 */
export function schemaConstraint(schema: z.ZodType) {
  let fields: z.core.$ZodType = schema;
  while (fields instanceof z.ZodPipe && fields.out instanceof z.ZodTransform) fields = fields.in;
  return getZodConstraint(fields);
}

/**
 * A schema's constraints never change, and reading them walks the whole schema: every form's
 * schema is built once (at module level), so each is read once rather than on every render.
 */
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
  /** The form's id; its fields' ids, error ids and hint ids start with it. */
  id: string;
  /** The schema the server's action parses this form with. */
  schema: Schema;
  /** The action's reply to this form's last post. */
  lastResult: FormReply;
  defaultValue?: DefaultValue<z.input<Schema>>;
  /** Only submits with this `intent` are checked; others (Apply, Remove) post as they are. */
  checkedIntent?: string;
  /**
   * Who answers a submit. "browser" (the customer's forms): a refused submit never leaves the
   * page, the fields show why. "server" (the admin's forms, whose refusals docs/product.md "Messages" answers
   * with a toast): the fields are still checked as they are left and typed in, but every
   * submit is posted and the server's reply brings the toast and the same messages.
   */
  submitCheckedBy?: "browser" | "server";
};

/**
 * One zod schema drives a form's native constraints, the browser's checks and the server's
 * reply: the architecture's one-schema-per-form rule. Every form posts as plain HTML (conform
 * renders it `noValidate`, so the server's messages show without JavaScript too) and is
 * re-rendered from the reply.
 */
export function useSchemaForm<
  Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>,
>({
  id,
  schema,
  lastResult,
  defaultValue,
  checkedIntent,
  submitCheckedBy = "browser",
}: Options<Schema>) {
  return useForm<z.input<Schema>, z.output<Schema>, string[]>({
    id,
    lastResult,
    defaultValue,
    constraint: constraintOf(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }): Submission<z.input<Schema>, string[], z.output<Schema>> => {
      // conform checks every submit, whatever the button's formNoValidate says: let the
      // secondary buttons through unchecked (the server checks what each one needs).
      if (checkedIntent !== undefined && formData.get("intent") !== checkedIntent) {
        const unchecked = parseWithZod(formData, { schema: keepAsTyped });
        return unchecked as unknown as Submission<z.input<Schema>, string[], z.output<Schema>>;
      }
      return parseWithZod(formData, {
        // conform's intent is null for a real submit, set for a field being checked.
        // The marker schema stands in for the form's own only to say "not known here".
        schema: (intent) =>
          intent === null && submitCheckedBy === "server"
            ? (leaveToServer as unknown as Schema)
            : schema,
      });
    },
  });
}
