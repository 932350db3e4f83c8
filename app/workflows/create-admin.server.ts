import { registerSchema } from "#app/domain/account";
import { Refusal } from "#app/domain/refusal";
import { createUser, getUserByUsername, makeAdmin } from "#app/models/user.server";

/**
 * The first admin (docs/deploy.md "First deploy"), or any later one. A new account is created,
 * held to the rules of registration (docs/product.md "Accounts and sign-ins"), the password's
 * strength included. An existing account is never promoted on its name alone: whoever
 * registered that name first would become staff (docs/product.md "Accounts and sign-ins"). Only
 * `confirmPromotion` (--promote-existing) promotes one, after the operator saw whose it is.
 */
export type AdminRequest = {
  username: string;
  email?: string | undefined;
  phoneNumber?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
};

/** What the operator is shown before an existing account is promoted. */
export type ExistingAccount = { id: number; username: string; email: string; createdAt: number };

export type AdminSteps = {
  /** Asked only when a new account is to be created. */
  askPassword: () => Promise<string>;
  /** Set by --promote-existing: true promotes the account shown. */
  confirmPromotion?: ((account: ExistingAccount) => Promise<boolean>) | undefined;
};

/** Refused is a value with every problem of the command line, for the script to print. */
export type AdminOutcome =
  | { ok: true; action: "created" | "promoted" | "already-admin"; id: number; username: string }
  | { ok: false; problems: string[] };

/** Registration's fields as the command line names them. */
const OPTION_OF: Record<string, string> = {
  username: "--username",
  password: "the password",
  email: "--email",
  phoneNumber: "--phone",
  firstName: "--first-name",
  lastName: "--last-name",
};

function refused(problem: string): AdminOutcome {
  return { ok: false, problems: [problem] };
}

export async function createOrPromoteAdmin(
  request: AdminRequest,
  steps: AdminSteps,
): Promise<AdminOutcome> {
  const username = request.username.trim();
  const existing = getUserByUsername(username);
  if (existing) return promoteExisting(existing, steps);
  if (steps.confirmPromotion) {
    return refused(`there is no account named ${username} to promote.`);
  }
  const parsed = registerSchema.safeParse({
    username: request.username,
    password: await steps.askPassword(),
    email: request.email,
    phoneNumber: request.phoneNumber,
    firstName: request.firstName ?? "Studio",
    lastName: request.lastName ?? "Admin",
    isStakeholder: false,
  });
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => {
        const field = String(issue.path[0] ?? "");
        return `${OPTION_OF[field] ?? field}: ${issue.message}`;
      }),
    };
  }
  try {
    const user = await createUser(parsed.data, { isAdmin: true });
    return { ok: true, action: "created", id: user.id, username: user.username };
  } catch (error) {
    // Someone registered the name between the look-up and the insert (the unique index
    // decides): theirs is not ours to promote.
    if (error instanceof Refusal && error.kind === "username-taken") {
      return refused(
        `--username: ${username} was registered by someone else while this ran. Pick another name.`,
      );
    }
    throw error;
  }
}

async function promoteExisting(
  existing: ExistingAccount & { isAdmin: boolean },
  steps: AdminSteps,
): Promise<AdminOutcome> {
  const account = { id: existing.id, username: existing.username };
  if (existing.isAdmin) return { ok: true, action: "already-admin", ...account };
  if (!steps.confirmPromotion) {
    return refused(
      `--username: an account named ${existing.username} already exists. To make that account an admin, run again with --promote-existing.`,
    );
  }
  if (!(await steps.confirmPromotion(existing))) {
    return refused(`${existing.username} was not promoted: not confirmed.`);
  }
  return makeAdmin(existing.id)
    ? { ok: true, action: "promoted", ...account }
    : { ok: true, action: "already-admin", ...account };
}
