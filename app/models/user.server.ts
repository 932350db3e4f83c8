import { verify } from "@node-rs/argon2";
import { and, eq, sql } from "drizzle-orm";
import { type User, users } from "#db/schema";
import { db, isUniqueViolation, type Tx, unlessBusy } from "#app/db.server";
import { type ProfileInput, type RegisterInput, USERNAME_TAKEN } from "#app/domain/account";
import { Refusal } from "#app/domain/refusal";
import type { PublicUser } from "#app/domain/user";
import { hashPassword } from "#app/models/password.server";

export { hashPassword };

/** False on a malformed hash. */
export function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

/** Never the password hash. */
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
export type { PublicUser };

// Every signed-in request runs this: prepared once.
const userById = db
  .select()
  .from(users)
  .where(eq(users.id, sql.placeholder("id")))
  .prepare();

export function getUserById(id: number): User | undefined {
  return userById.get({ id });
}

/** docs/product.md "E-mail": account mail goes here, never to an address typed in a form. */
export function accountEmail(reader: Pick<typeof db, "select">, userId: number): string {
  const row = reader.select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
  if (!row) throw new Error(`User ${userId} does not exist`);
  return row.email;
}

export function getUserByUsername(username: string): User | undefined {
  return db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`).get();
}

// A dummy hash for unknown usernames keeps the response time the same.
let dummyHash: Promise<string> | undefined;

export async function verifyLogin(username: string, password: string): Promise<User | null> {
  const user = getUserByUsername(username);
  dummyHash ??= hashPassword("not-a-real-password");
  const ok = await passwordMatches(user?.passwordHash ?? (await dummyHash), password);
  return user && ok ? user : null;
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
    if (isUniqueViolation(error)) throw new Refusal("username-taken", USERNAME_TAKEN);
    throw error;
  }
}

/** Until then nobody may register (registration-open.server.ts). */
export function anyAdminExists(): boolean {
  return (
    db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).limit(1).get() !==
    undefined
  );
}

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

/** False when another change landed since the caller proved the current password. */
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
