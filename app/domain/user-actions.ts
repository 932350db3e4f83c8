import { parseId } from "#app/domain/ids";
import { z } from "#app/domain/zod";

/** Server only: apart from membership.ts, so the page, which only posts buttons, brings no zod. */
export const USER_ACTION_MESSAGES = {
  intent: "Please use one of the user's buttons.",
  user: "Please choose a user.",
  membership: "Please choose a user and a membership.",
  twoFactorOff: "That user does not have two-factor sign-in on: there is nothing to reset.",
} as const;

function userId(message: string) {
  return z.string({ error: message }).transform((text, context) => {
    const id = parseId(text);
    if (id !== null) return id;
    context.addIssue({ code: "custom", message });
    return z.NEVER;
  });
}

export const userActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("make-admin"), userId: userId(USER_ACTION_MESSAGES.user) }),
    z.object({
      intent: z.literal("reset-two-factor"),
      userId: userId(USER_ACTION_MESSAGES.user),
    }),
    z.object({
      intent: z.literal("membership"),
      userId: userId(USER_ACTION_MESSAGES.membership),
      isMember: z
        .enum(["true", "false"], { error: USER_ACTION_MESSAGES.membership })
        .transform((wanted) => wanted === "true"),
    }),
  ],
  { error: USER_ACTION_MESSAGES.intent },
);
