import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import { users } from "#db/schema";
import { db, unlessBusy } from "#app/db.server";
import type { MembershipFilter } from "#app/domain/membership";
import { type Page, pageWindow, toPage } from "#app/models/pagination.server";

/** What the admin sees of an account (and GET /api/admin/users answers): never more. */
export type AdminUserRow = { id: number; username: string; isAdmin: boolean; isMember: boolean };

const columns = {
  id: users.id,
  username: users.username,
  isAdmin: users.isAdmin,
  isMember: users.isMember,
};

/** LIKE's own wildcards in a search typed by a person are literal characters. */
function containsPattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * One page of accounts, newest first (a just-registered customer is on page 1), filtered by
 * membership and an optional username search in SQL. Walks the primary key backwards and
 * stops after one page plus one row: no count of the whole table.
 */
export function listUsers(options: {
  filter: MembershipFilter;
  search?: string;
  page: number;
  size?: number;
}): Page<AdminUserRow> {
  const { limit, offset } = pageWindow(options.page, options.size);
  const rows = db
    .select(columns)
    .from(users)
    .where(and(...usersWhere(options.filter, options.search)))
    .orderBy(desc(users.id))
    .limit(limit)
    .offset(offset)
    .all();
  return toPage(rows, options.page, options.size);
}

function usersWhere(filter: MembershipFilter, rawSearch?: string): SQL[] {
  const where: SQL[] = [];
  if (filter === "members") where.push(eq(users.isMember, true));
  if (filter === "non-members") where.push(eq(users.isMember, false));
  const search = rawSearch?.trim();
  if (search) {
    where.push(sql`lower(${users.username}) LIKE ${containsPattern(search)} ESCAPE '\\'`);
  }
  return where;
}

/**
 * The next `limit` accounts after the account `afterId`, in the Users tab's order (newest
 * first): the whole list of GET /api/admin/users is walked this way, by key.
 */
export function usersAfter(
  filter: MembershipFilter,
  afterId: number | null,
  limit: number,
): AdminUserRow[] {
  const where = usersWhere(filter);
  if (afterId !== null) where.push(lt(users.id, afterId));
  return db
    .select(columns)
    .from(users)
    .where(and(...where))
    .orderBy(desc(users.id))
    .limit(limit)
    .all();
}

/**
 * Promotes an account to admin (docs/product.md "States and transitions": one way; the tab offers
 * no demotion). The same answer for an account that already is one: promoting twice changes
 * nothing. Undefined when no such account exists.
 */
export function makeAdmin(userId: number): AdminUserRow | undefined {
  return unlessBusy(() =>
    db.update(users).set({ isAdmin: true }).where(eq(users.id, userId)).returning(columns).get(),
  );
}

/** Sets or removes the member flag (both ways). Undefined when no such account exists. */
export function setMembership(userId: number, isMember: boolean): AdminUserRow | undefined {
  return unlessBusy(() =>
    db.update(users).set({ isMember }).where(eq(users.id, userId)).returning(columns).get(),
  );
}
