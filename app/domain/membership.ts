import { parseId } from "#app/domain/ids";
import { z } from "#app/domain/zod";

/** The Users tab's filter (spec section 2): All Users, Members Only, Non-Members Only. */
export const MEMBERSHIP_FILTERS = ["all", "members", "non-members"] as const;
export type MembershipFilter = (typeof MEMBERSHIP_FILTERS)[number];

export const MEMBERSHIP_FILTER_LABELS: Record<MembershipFilter, string> = {
  all: "All Users",
  members: "Members Only",
  "non-members": "Non-Members Only",
};

/** What an empty list says under each filter (spec section 2). */
export const MEMBERSHIP_EMPTY_TEXTS: Record<MembershipFilter, string> = {
  all: "No users found",
  members: "No members found",
  "non-members": "No non-members found",
};

export const USER_ACTION_MESSAGES = {
  intent: "Please use one of the user's buttons.",
  user: "Please choose a user.",
  membership: "Please choose a user and a membership.",
} as const;

/** The row's user, posted by the button's form. */
function userId(message: string) {
  return z.string({ error: message }).transform((text, context) => {
    const id = parseId(text);
    if (id !== null) return id;
    context.addIssue({ code: "custom", message });
    return z.NEVER;
  });
}

/** The Users tab's row buttons: Make Admin, and Make Member / Remove Membership. */
export const userActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("make-admin"), userId: userId(USER_ACTION_MESSAGES.user) }),
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
