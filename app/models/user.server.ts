import { verify } from "@node-rs/argon2";
import { eq, sql } from "drizzle-orm";
import { type User, users } from "#db/schema";
import { db, isUniqueViolation, unlessBusy, writeTransaction } from "#app/db.server";
import type { ProfileInput, RegisterInput } from "#app/domain/account";
import { hashPassword } from "#app/models/password.server";
import { restartUserSessions } from "#app/web/session.server";

export { hashPassword };

/** What the browser and the JSON API may see of a user: never the password hash. */
export function toPublicUser(user: User) {
  return {
    id: user.id,
    username: user.username,
    isAdmin: user.isAdmin,
    isMember: user.isMember,
    firstName: user.firstName,
    lastName: user.lastName,
    businessName: user.businessName,
    phoneNumber: user.phoneNumber,
    email: user.email,
    isStakeholder: user.isStakeholder,
  };
}
export type PublicUser = ReturnType<typeof toPublicUser>;

// Every signed-in request runs this: prepared once instead of rebuilt and re-prepared each time.
const userById = db
  .select()
  .from(users)
  .where(eq(users.id, sql.placeholder("id")))
  .prepare();

export function getUserById(id: number): User | undefined {
  return userById.get({ id });
}

export function getUserByUsername(username: string): User | undefined {
  return db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`).get();
}

// Verifying against a dummy hash when the username is unknown keeps the response time the
// same, so timing does not reveal which usernames exist.
let dummyHash: Promise<string> | undefined;

export async function verifyLogin(username: string, password: string): Promise<User | null> {
  const user = getUserByUsername(username);
  dummyHash ??= hashPassword("not-a-real-password");
  const ok = await verify(user?.passwordHash ?? (await dummyHash), password).catch(() => false);
  return user && ok ? user : null;
}

export class UsernameTakenError extends Error {
  constructor() {
    super("Username already exists");
  }
}

export async function createUser(input: RegisterInput): Promise<User> {
  // Hash before the write: an await inside a transaction would hold the write lock.
  const passwordHash = await hashPassword(input.password);
  try {
    return unlessBusy(() =>
      db
        .insert(users)
        .values({
          username: input.username,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          businessName: input.businessName ?? null,
          phoneNumber: input.phoneNumber,
          email: input.email,
          isStakeholder: input.isStakeholder,
        })
        .returning()
        .get(),
    );
  } catch (error) {
    // The unique index on lower(username) is the authority, also under concurrent sign-ups.
    if (isUniqueViolation(error)) throw new UsernameTakenError();
    throw error;
  }
}

/** Replaces the profile fields a customer owns (Profile Settings, PUT /api/users/{id}/profile). */
export function updateProfile(userId: number, input: ProfileInput): User | undefined {
  return unlessBusy(() =>
    db
      .update(users)
      .set({
        firstName: input.firstName,
        lastName: input.lastName,
        businessName: input.businessName ?? null,
        phoneNumber: input.phoneNumber,
        email: input.email,
        isStakeholder: input.isStakeholder,
      })
      .where(eq(users.id, userId))
      .returning()
      .get(),
  );
}

export type PasswordChange =
  | { status: "changed"; sessionId: string }
  | { status: "wrong-password" };

/**
 * Stores a new password once the current one is proven, ends every session of the user and
 * starts a fresh one for the caller (quality.md: changing the password ends other sessions).
 */
export async function changePassword(
  userId: number,
  currentPassword: string,
  newPassword: string,
): Promise<PasswordChange> {
  const user = getUserById(userId);
  if (!user) return { status: "wrong-password" };
  const ok = await verify(user.passwordHash, currentPassword).catch(() => false);
  if (!ok) return { status: "wrong-password" };
  // Hash before the write: an await inside a transaction would hold the write lock.
  const passwordHash = await hashPassword(newPassword);
  return writeTransaction((tx): PasswordChange => {
    const stored = tx
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, userId))
      .get();
    // Another change landed while this one was hashing: the password proven above is no
    // longer the current one, so this change must not overwrite that one.
    if (stored?.passwordHash !== user.passwordHash) return { status: "wrong-password" };
    tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).run();
    return { status: "changed", sessionId: restartUserSessions(tx, userId) };
  });
}
