import { parseWithZod } from "@conform-to/zod/v4";
import type { RouterContextProvider } from "react-router";
import {
  SERVICE_MESSAGES,
  type ServiceInput,
  serviceRefusalMessage,
  serviceSchema,
} from "#app/domain/services";
import { replyWithToast } from "#app/web/toast.server";

/** The Services list with its page, whichever dialog of it the request came from. */
export function servicesListUrl(request: Request): string {
  const url = new URL(request.url);
  const page = url.searchParams.get("page");
  return page && /^\d{1,6}$/.test(page) ? `/admin/services?page=${page}` : "/admin/services";
}

/**
 * Reads the dialog's fields and checks them (docs/product.md "Validation"). A refusal is the 400
 * reply with each field's message and the 'Validation Error' toast of docs/product.md "Validation"
 * naming the first problem.
 */
export function readServiceForm(context: Readonly<RouterContextProvider>, formData: FormData) {
  const submission = parseWithZod(formData, { schema: serviceSchema });
  if (submission.status === "success") return { service: submission.value satisfies ServiceInput };
  return {
    reply: replyWithToast(
      context,
      formData,
      { result: submission.reply() },
      {
        type: "error",
        message: SERVICE_MESSAGES.title,
        description: serviceRefusalMessage(submission.error),
      },
      { status: 400 },
    ),
  };
}
