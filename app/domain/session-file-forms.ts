import { parseId } from "#app/domain/ids";
import { sessionFileNameSchema } from "#app/domain/session-files";
import { z } from "#app/domain/zod";

/** The file is the row's hidden field, checked again by the workflow. */
export const FILE_FORM_MESSAGES = {
  file: "That file does not exist or has been deleted.",
} as const;

const fileIdField = z.string({ error: FILE_FORM_MESSAGES.file }).transform((text, context) => {
  const id = parseId(text);
  if (id !== null) return id;
  context.addIssue({ code: "custom", message: FILE_FORM_MESSAGES.file });
  return z.NEVER;
});

export const fileRenameSchema = z.object({ fileId: fileIdField, name: sessionFileNameSchema });

export const fileDeleteSchema = z.object({ fileId: fileIdField });
