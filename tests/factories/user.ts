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

/** A customer (or, with isAdmin, staff) who can sign in with `password`. */
export async function createUser(db: FactoryDb, input: UserInput = {}): Promise<FactoryUser> {
  const { password = PASSWORD, ...fields } = input;
  const username = fields.username ?? uniqueUsername();
  const row = db
    .insert(users)
    .values({
      firstName: "Ada",
      lastName: "Lovelace",
      phoneNumber: "404-555-0100",
      email: `${username.toLowerCase()}@example.com`,
      ...fields,
      username,
      passwordHash: await hashOf(password),
    })
    .returning()
    .get();
  return { ...row, password };
}
