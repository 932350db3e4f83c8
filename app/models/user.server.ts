import { verify } from "@node-rs/argon2";
import { and, eq, sql } from "drizzle-orm";
import { type User, users } from "#db/schema";
import { db, isUniqueViolation, type Tx, unlessBusy } from "#app/db.server";
import type { ProfileInput, RegisterInput } from "#app/domain/account";
import type { PublicUser } from "#app/domain/user";
import { hashPassword } from "#app/models/password.server";

export { hashPassword };

/** Whether `password` is the one `passwordHash` was made from (false on a malformed hash). */
export function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

/** What the browser and the JSON API may see of a user: never the password hash. */
export function toPublicUser(user: User): PublicUser {
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
// The type is the domain's (components take it too); server code may keep importing it here.
export type { PublicUser };

// Every signed-in request runs this: prepared once instead of rebuilt and re-prepared each time.
const userById = db
  .select()
  .from(users)
  .where(eq(users.id, sql.placeholder("id")))
  .prepare();

export function getUserById(id: number): User | undefined {
  return userById.get({ id });
}

/**
 * The account's own e-mail address, read in the caller's transaction: every e-mail about an
 * account's bookings, payments and support requests goes here, never to an address typed in a
 * form (docs/product.md "E-mail").
 */
export function accountEmail(reader: Pick<typeof db, "select">, userId: number): string {
  const row = reader.select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
  if (!row) throw new Error(`User ${userId} does not exist`);
  return row.email;
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
  const ok = await passwordMatches(user?.passwordHash ?? (await dummyHash), password);
  return user && ok ? user : null;
}

export class UsernameTakenError extends Error {
  constructor() {
    super("Username already exists");
  }
}

export async function createUser(
  input: RegisterInput,
  options: { isAdmin?: boolean } = {},
): Promise<User> {
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
          isAdmin: options.isAdmin ?? false,
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

/** Whether any account is staff yet: until then nobody may register (registration-open.server.ts). */
export function anyAdminExists(): boolean {
  return (
    db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).limit(1).get() !==
    undefined
  );
}

/** Gives an account the admin flag; false when it had it already (or is not there). */
export function makeAdmin(userId: number): boolean {
  return (
    unlessBusy(() =>
      db
        .update(users)
        .set({ isAdmin: true })
        .where(and(eq(users.id, userId), eq(users.isAdmin, false)))
        .run(),
    ).changes === 1
  );
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

/**
 * Stores a new password hash, provided the stored one is still `expectedHash` (the one the
 * caller proved the current password against). False when another change landed meanwhile.
 */
export function replacePasswordHash(
  tx: Tx,
  userId: number,
  expectedHash: string,
  passwordHash: string,
): boolean {
  const changed = tx
    .update(users)
    .set({ passwordHash })
    .where(and(eq(users.id, userId), eq(users.passwordHash, expectedHash)))
    .run();
  return changed.changes === 1;
}
