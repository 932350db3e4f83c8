import { hash } from "@node-rs/argon2";

/**
 * The password hash on its own, without the database: the seed script and the tests' user
 * factory hash with exactly the app's parameters without opening the configured database.
 */

/** OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane. */
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string) {
  return hash(password, ARGON2);
}
