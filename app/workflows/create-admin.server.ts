import { registerSchema } from "#app/domain/account";
import {
  createUser,
  getUserByUsername,
  makeAdmin,
  UsernameTakenError,
} from "#app/models/user.server";

/**
 * The first admin (docs/deploy.md "First deploy"), or any later one: an existing account is
 * promoted as it is (its password untouched); otherwise a new account is created, held to the
 * rules of registration (docs/product.md "Accounts and sessions"), the password's strength
 * included. The password is only asked for when an account is to be created.
 */
export type AdminRequest = {
  username: string;
  email?: string | undefined;
  phoneNumber?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
};

export type AdminOutcome =
  | { kind: "created" | "promoted" | "already-admin"; id: number; username: string }
  | { kind: "refused"; problems: string[] };

/** Registration's fields as the command line names them. */
const OPTION_OF: Record<string, string> = {
  username: "--username",
  password: "the password",
  email: "--email",
  phoneNumber: "--phone",
  firstName: "--first-name",
  lastName: "--last-name",
};

export async function createOrPromoteAdmin(
  request: AdminRequest,
  askPassword: () => Promise<string>,
): Promise<AdminOutcome> {
  const existing = getUserByUsername(request.username.trim());
  if (existing) {
    const changed = makeAdmin(existing.id);
    return {
      kind: changed ? "promoted" : "already-admin",
      id: existing.id,
      username: existing.username,
    };
  }
  const parsed = registerSchema.safeParse({
    username: request.username,
    password: await askPassword(),
    email: request.email,
    phoneNumber: request.phoneNumber,
    firstName: request.firstName ?? "Studio",
    lastName: request.lastName ?? "Admin",
    isStakeholder: false,
  });
  if (!parsed.success) {
    return {
      kind: "refused",
      problems: parsed.error.issues.map((issue) => {
        const field = String(issue.path[0] ?? "");
        return `${OPTION_OF[field] ?? field}: ${issue.message}`;
      }),
    };
  }
  try {
    const user = await createUser(parsed.data, { isAdmin: true });
    return { kind: "created", id: user.id, username: user.username };
  } catch (error) {
    // Registered by someone else between the look-up and the insert: promote that one instead.
    if (error instanceof UsernameTakenError) return createOrPromoteAdmin(request, askPassword);
    throw error;
  }
}
