import { eq } from "drizzle-orm";
import { type User, users } from "#db/schema";
import { hashPassword } from "#app/models/password.server";
import { type FactoryDb, uniqueTail } from "#tests/factories/database";

/** Every factory-made user's password unless a test picks its own. */
export const PASSWORD = "correct-horse-battery";

type NewUser = typeof users.$inferInsert;

export type UserInput = Partial<Omit<NewUser, "id" | "passwordHash">> & {
  /** Hashed with the app's own argon2id parameters. */
  password?: string;
};

/** The stored row, plus the password that signs in as it. */
export type FactoryUser = User & { password: string };

// argon2id is slow on purpose (19 MiB, tens of milliseconds): each password is hashed once
// per process and the hash reused by every user who has it.
const hashes = new Map<string, Promise<string>>();
function hashOf(password: string): Promise<string> {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    hashes.set(password, hashed);
  }
  return hashed;
}

/** A unique username within the 3..50 [A-Za-z0-9._-] rule. */
export function uniqueUsername(prefix = "user"): string {
  return `${prefix}_${uniqueTail()}`.slice(0, 50);
}

/** The row a factory user is stored as: `fields` over the defaults, a unique username unless given. */
function userValues(fields: Partial<Omit<NewUser, "passwordHash">>, passwordHash: string): NewUser {
  const username = fields.username ?? uniqueUsername();
  return {
    firstName: "Ada",
    lastName: "Lovelace",
    phoneNumber: "404-555-0100",
    email: `${username.toLowerCase()}@example.com`,
    ...fields,
    username,
    passwordHash,
  };
}

/** A customer (or, with isAdmin, staff) who can sign in with `password`. */
export async function createUser(db: FactoryDb, input: UserInput = {}): Promise<FactoryUser> {
  const { password = PASSWORD, ...fields } = input;
  const row = db
    .insert(users)
    .values(userValues(fields, await hashOf(password)))
    .returning()
    .get();
  return { ...row, password };
}

/** What a user who never signs in is stored with: not an argon2id hash, so no password matches. */
export const NO_PASSWORD_HASH = "not-a-real-hash";

/**
 * A customer (or, with isAdmin, staff) who never signs in, made synchronously: no password is
 * hashed, so it fits where an await does not (a transaction, a fixture called per test).
 */
export function createUserWithoutPassword(
  db: FactoryDb,
  input: Partial<Omit<NewUser, "id" | "passwordHash">> = {},
): User {
  return db.insert(users).values(userValues(input, NO_PASSWORD_HASH)).returning().get();
}

/**
 * The studio's first admin, as `create-admin` leaves one on a new deploy: until an admin
 * exists, registration is closed (docs/deploy.md "First deploy"). Does nothing when there is one.
 */
export function ensureStudioAdmin(db: FactoryDb): void {
  const admin = db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).get();
  if (!admin) createUserWithoutPassword(db, { username: uniqueUsername("owner"), isAdmin: true });
}
