import { Refusal } from "#app/domain/refusal";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { services, users } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { parseCouponForm } from "#app/domain/coupons";
import { PAGE_SIZE } from "#app/models/pagination.server";
import { listUsers, makeAdmin, setMembership } from "#app/models/admin-users.server";
import { checkCoupon, createCoupon, listCoupons, setCouponActive } from "#app/models/coupon.server";
import {
  createService,
  deleteService,
  getService,
  listServicesPage,
  setServiceActive,
  updateService,
} from "#app/models/service.server";
import { addBookingService, createBooking } from "#tests/factories/booking";

/** The Users, Coupons and Services tabs' writes, against a real, freshly migrated SQLite file. */
let counter = 0;

function makeUser(prefix = "catalog") {
  counter += 1;
  return db
    .insert(users)
    .values({
      username: `${prefix}_${counter}`,
      passwordHash: "x",
      firstName: "Cat",
      lastName: "Alog",
      phoneNumber: "404-555-0100",
      email: `cat${counter}@example.com`,
    })
    .returning()
    .get();
}

function newCoupon(code: string, amount = "10", type = "PERCENTAGE") {
  const parsed = parseCouponForm({ code, type, amount, maxUses: "0", expiryDate: "" });
  if (!("coupon" in parsed)) throw new Error("test coupon refused");
  return parsed.coupon;
}

describe("users", () => {
  it("promotes one way and toggles membership both ways", () => {
    const user = makeUser();
    expect(makeAdmin(user.id)).toEqual({
      id: user.id,
      username: user.username,
      isAdmin: true,
      isMember: false,
    });
    expect(makeAdmin(user.id)?.isAdmin).toBe(true);
    expect(setMembership(user.id, true)?.isMember).toBe(true);
    expect(setMembership(user.id, false)?.isMember).toBe(false);
    expect(db.select().from(users).where(eq(users.id, user.id)).get()?.isAdmin).toBe(true);
  });

  it("answers undefined for an unknown account", () => {
    expect(makeAdmin(999_999)).toBeUndefined();
    expect(setMembership(999_999, true)).toBeUndefined();
  });

  it("lists newest first, filtered by membership and username, a page at a time", () => {
    const made = Array.from({ length: PAGE_SIZE + 2 }, () => makeUser("pager"));
    const member = made[3];
    if (!member) throw new Error("no user");
    setMembership(member.id, true);

    const first = listUsers({ filter: "all", search: "pager_", page: 1 });
    expect(first.rows).toHaveLength(PAGE_SIZE);
    expect(first.hasNext).toBe(true);
    expect(first.rows[0]?.id).toBe(made.at(-1)?.id);
    const second = listUsers({ filter: "all", search: "PAGER_", page: 2 });
    expect(second.rows).toHaveLength(2);
    expect(second.hasNext).toBe(false);

    const members = listUsers({ filter: "members", search: "pager", page: 1 });
    expect(members.rows.map((row) => row.id)).toEqual([member.id]);
    const nonMembers = listUsers({ filter: "non-members", search: "pager", page: 1 });
    expect(nonMembers.rows.some((row) => row.id === member.id)).toBe(false);
    // LIKE wildcards typed in the search are literal characters.
    expect(listUsers({ filter: "all", search: "pager%", page: 1 }).rows).toEqual([]);
    expect(listUsers({ filter: "all", search: "p_ger", page: 1 }).rows).toEqual([]);
  });
});

describe("coupons", () => {
  it("stores a new coupon active with its generated description", () => {
    const coupon = createCoupon(newCoupon("model15", "15.5", "FIXED_AMOUNT"), Date.now());
    expect(coupon).toMatchObject({
      code: "MODEL15",
      type: "FIXED_AMOUNT",
      value: 1550,
      description: "$15.50 off coupon",
      isActive: true,
      currentUses: 0,
      expiryDate: "2099-12-31",
    });
    expect(checkCoupon("model15", Date.now()).isValid).toBe(true);
  });

  it("refuses a duplicate code in any case", () => {
    createCoupon(newCoupon("DupCode"), Date.now());
    expect(() => createCoupon(newCoupon("dupcode"), Date.now())).toThrow(Refusal);
    // The store's own index, not only the normalizing: a differently cased row still clashes.
    expect(() => createCoupon({ ...newCoupon("x"), code: "dUpCoDe" }, Date.now())).toThrow(
      'A coupon with code "dUpCoDe" already exists. Please use a different code.',
    );
  });

  it("deactivates and activates; an inactive coupon cannot be redeemed", () => {
    const coupon = createCoupon(newCoupon("toggle1"), Date.now());
    expect(setCouponActive(coupon.id, false)?.isActive).toBe(false);
    expect(checkCoupon("TOGGLE1", Date.now()).isValid).toBe(false);
    expect(setCouponActive(coupon.id, true)?.isActive).toBe(true);
    expect(checkCoupon("TOGGLE1", Date.now()).isValid).toBe(true);
    expect(setCouponActive(999_999, true)).toBeUndefined();
  });

  it("lists newest first", () => {
    const older = createCoupon(newCoupon("older1"), Date.now());
    const newer = createCoupon(newCoupon("newer1"), Date.now());
    const ids = listCoupons(Date.now(), 1).rows.map((row) => row.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
  });
});

describe("services", () => {
  const input = { name: "Video package", description: "Two cameras", price: 150, duration: 60 };

  it("creates active, edits and toggles", () => {
    const service = createService(input);
    expect(service).toMatchObject({ ...input, isActive: true });
    expect(updateService(service.id, { ...input, price: 175, duration: null })).toMatchObject({
      price: 175,
      duration: null,
      isActive: true,
    });
    expect(setServiceActive(service.id, false)?.isActive).toBe(false);
    expect(updateService(999_999, input)).toBeUndefined();
    expect(listServicesPage(1).rows[0]?.id).toBe(service.id);
  });

  it("deletes an unused service", () => {
    const service = createService(input);
    expect(writeTransaction((tx) => deleteService(tx, service.id))).toMatchObject({
      ok: true,
      removed: "deleted",
    });
    expect(getService(service.id)).toBeUndefined();
    expect(() => writeTransaction((tx) => deleteService(tx, service.id))).toThrow(
      expect.objectContaining({ kind: "not-found", message: "Service not found" }),
    );
  });

  it("deactivates a service any booking used instead of deleting it", () => {
    const service = createService(input);
    const user = makeUser();
    const booking = createBooking(db, { user, date: "2031-02-03", status: "CANCELLED" });
    addBookingService(db, { booking, service, priceAtBooking: 150 });

    const removal = writeTransaction((tx) => deleteService(tx, service.id));
    expect(removal).toMatchObject({
      ok: true,
      removed: "deactivated",
      service: { isActive: false },
    });
    expect(db.select().from(services).where(eq(services.id, service.id)).get()?.isActive).toBe(
      false,
    );
    // Deleting it again keeps it (still used) and says so again.
    expect(writeTransaction((tx) => deleteService(tx, service.id)).removed).toBe("deactivated");
  });
});
