import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { coupons, services, users } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { bookingPayload } from "#tests/setup/payloads";
import { uniqueUsername } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * The Users, Coupons and Services tabs and their JSON calls (docs/product.md
 * "States and transitions", "Validation", "The JSON API" and "Messages") against the app in
 * process: each endpoint's answers, its refusals (400 with the message of
 * docs/product.md "Validation", 404 for unknown ids, 409 for a duplicate code) and that a refusal
 * writes nothing. Who may call them at all is the authorization matrix's job (access-rules.ts).
 */
const server = appForThisFile();
const { signUp, signUpAdmin, snapshot } = actorsFor(server);

type Json = Record<string, unknown>;
let admin: Actor;
let customer: Actor;

beforeAll(async () => {
  admin = await signUpAdmin();
  customer = await signUp();
});

function api(path: string, method = "GET", body?: unknown, cookie = admin.cookie) {
  const headers: Record<string, string> = { Origin: server.url, Cookie: cookie };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return fetch(`${server.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function postForm(path: string, fields: Record<string, string>) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url, Cookie: admin.cookie },
    body: new URLSearchParams(fields),
  });
}

/** A refused request: its status and message, and not one row changed. */
async function expectRefused(send: () => Promise<Response>, status: number, message?: string) {
  const before = snapshot();
  const response = await send();
  const body = (await response.json()) as Json;
  expect(response.status, JSON.stringify(body)).toBe(status);
  if (message !== undefined) expect(body.message).toBe(message);
  expect(snapshot()).toEqual(before);
  return body;
}

const code = () => uniqueUsername("cp").toUpperCase();

function userFlags(id: number) {
  return server.db
    .select({ isAdmin: users.isAdmin, isMember: users.isMember })
    .from(users)
    .where(eq(users.id, id))
    .get();
}

function serviceRow(id: unknown) {
  return server.db
    .select()
    .from(services)
    .where(eq(services.id, Number(id)))
    .get();
}

describe("users", () => {
  it("lists {id, username, isAdmin, isMember}, newest first, filtered by membership", async () => {
    const fresh = await signUp();
    const response = await api("/api/admin/users");
    expect(response.status).toBe(200);
    const list = (await response.json()) as Json[];
    expect(list[0]).toEqual({
      id: fresh.id,
      username: fresh.username,
      isAdmin: false,
      isMember: false,
    });

    expect(
      await (
        await api(`/api/admin/users/${fresh.id}/membership`, "PUT", { isMember: true })
      ).json(),
    ).toEqual({
      id: fresh.id,
      username: fresh.username,
      isAdmin: false,
      isMember: true,
    });
    const members = (await (await api("/api/admin/users?membership=members")).json()) as Json[];
    expect(members.map((user) => user.id)).toContain(fresh.id);
    expect(members.every((user) => user.isMember === true)).toBe(true);
    const others = (await (await api("/api/admin/users?membership=non-members")).json()) as Json[];
    expect(others.map((user) => user.id)).not.toContain(fresh.id);
    await expectRefused(() => api("/api/admin/users?membership=gold"), 400);
  });

  it("promotes a user; the new admin can then use the admin API", async () => {
    const fresh = await signUp();
    expect((await api("/api/admin/users", "GET", undefined, fresh.cookie)).status).toBe(403);
    const response = await api(`/api/admin/users/${fresh.id}/make-admin`, "PUT", {});
    expect(await response.json()).toMatchObject({ id: fresh.id, isAdmin: true });
    expect((await api("/api/admin/users", "GET", undefined, fresh.cookie)).status).toBe(200);
  });

  it("refuses unknown ids and bad bodies", async () => {
    await expectRefused(
      () => api("/api/admin/users/999999/make-admin", "PUT", {}),
      404,
      "User not found",
    );
    await expectRefused(
      () => api("/api/admin/users/abc/make-admin", "PUT", {}),
      404,
      "User not found",
    );
    await expectRefused(
      () => api("/api/admin/users/999999/membership", "PUT", { isMember: true }),
      404,
      "User not found",
    );
    await expectRefused(
      () => api(`/api/admin/users/${customer.id}/membership`, "PUT", { isMember: "yes" }),
      400,
      "isMember must be true or false",
    );
    await expectRefused(() => api(`/api/admin/users/${customer.id}/membership`, "PUT"), 415);
  });

  it("the tab's forms promote and toggle membership with a toast, or refuse unknown users", async () => {
    const fresh = await signUp();
    const promoted = await postForm("/admin/users?membership=all&page=1", {
      intent: "make-admin",
      userId: String(fresh.id),
    });
    expect(promoted.status).toBe(302);
    expect(promoted.headers.get("Location")).toBe("/admin/users?membership=all&page=1");
    expect(promoted.headers.get("Set-Cookie")).toContain("toast-session=");
    expect(userFlags(fresh.id)).toMatchObject({ isAdmin: true });

    const member = await postForm("/admin/users", {
      intent: "membership",
      userId: String(fresh.id),
      isMember: "true",
    });
    expect(member.status).toBe(302);
    expect(userFlags(fresh.id)).toMatchObject({ isMember: true });

    const before = snapshot();
    const unknown = await postForm("/admin/users", { intent: "make-admin", userId: "999999" });
    expect(unknown.status).toBe(404);
    const page = await unknown.text();
    expect(page).toContain("Error updating user");
    expect(page).toContain("User not found");
    const bad = await postForm("/admin/users", {
      intent: "membership",
      userId: "1",
      isMember: "maybe",
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Error updating membership");
    expect(snapshot()).toEqual(before);
  });
});

describe("coupons", () => {
  it("creates a coupon from the original client's body (docs/product.md 'The JSON API'), recomputing what it must not trust", async () => {
    const wanted = code();
    const response = await api("/api/admin/coupons", "POST", {
      code: wanted.toLowerCase(),
      description: "anything the client says",
      type: "FIXED_AMOUNT",
      value: 1550,
      maxUses: 0,
      expiryDate: "2030-06-30T00:00:00.000Z",
      isActive: true,
      createdAt: "2001-01-01T00:00:00.000Z",
    });
    expect(response.status).toBe(201);
    const coupon = (await response.json()) as Json;
    expect(coupon).toMatchObject({
      code: wanted,
      description: "$15.50 off coupon",
      type: "FIXED_AMOUNT",
      value: 1550,
      maxUses: 0,
      currentUses: 0,
      expiryDate: "2030-06-30",
      isActive: true,
    });
    expect(Date.parse(String(coupon.createdAt))).toBeGreaterThan(Date.now() - 60_000);

    const list = (await (await api("/api/admin/coupons")).json()) as Json[];
    expect(list[0]).toEqual(coupon);
    // Usable in the booking form at once.
    const check = await api(
      `/api/coupons/validate/${wanted.toLowerCase()}`,
      "GET",
      undefined,
      customer.cookie,
    );
    expect(await check.json()).toMatchObject({
      isValid: true,
      coupon: { code: wanted, value: 1550 },
    });
  });

  it("answers 409 with the message and the code for a duplicate in any case", async () => {
    const wanted = code();
    const body = { code: wanted, type: "PERCENTAGE", value: 20, maxUses: 5 };
    expect((await api("/api/admin/coupons", "POST", body)).status).toBe(201);
    const duplicate = await expectRefused(
      () => api("/api/admin/coupons", "POST", { ...body, code: wanted.toLowerCase() }),
      409,
      `A coupon with code "${wanted}" already exists. Please use a different code.`,
    );
    expect(duplicate.code).toBe(wanted);
  });

  it("refuses bad values with the messages of docs/product.md 'Validation'", async () => {
    const base = { code: code(), type: "PERCENTAGE", value: 10, maxUses: 0 };
    const cases: [Json, string][] = [
      [{ ...base, code: "  " }, "Please enter a coupon code"],
      [{ ...base, value: 0 }, "Discount amount must be a positive number"],
      [{ ...base, value: -5 }, "Discount amount must be a positive number"],
      [{ ...base, value: 12.5 }, "Discount amount must be a positive number"],
      [{ ...base, value: "10" }, "Discount amount must be a positive number"],
      [{ ...base, value: 101 }, "A percentage discount cannot be more than 100%"],
      [{ ...base, maxUses: -1 }, "Maximum uses must be a non-negative number"],
      [{ ...base, maxUses: 1.5 }, "Maximum uses must be a non-negative number"],
      [{ ...base, type: "BOGO" }, "Please choose Percentage or Fixed amount"],
      [{ ...base, expiryDate: "2030-02-30" }, "Please enter a valid date"],
      [{ ...base, code: "no/slashes" }, "Use up to 50 letters, digits, - or _"],
    ];
    for (const [body, message] of cases) {
      await expectRefused(() => api("/api/admin/coupons", "POST", body), 400, message);
    }
  });

  it("deactivates and activates, and 404s unknown coupons", async () => {
    const created = (await (
      await api("/api/admin/coupons", "POST", {
        code: code(),
        type: "PERCENTAGE",
        value: 10,
        maxUses: 0,
      })
    ).json()) as Json;
    const off = await api(`/api/admin/coupons/${created.id}/deactivate`, "PUT", {});
    expect(await off.json()).toMatchObject({ id: created.id, isActive: false });
    const check = await api(
      `/api/coupons/validate/${created.code}`,
      "GET",
      undefined,
      customer.cookie,
    );
    expect(await check.json()).toMatchObject({ isValid: false });
    const on = await api(`/api/admin/coupons/${created.id}`, "PUT", { isActive: true });
    expect(await on.json()).toMatchObject({ id: created.id, isActive: true });

    await expectRefused(
      () => api("/api/admin/coupons/999999/deactivate", "PUT", {}),
      404,
      "Coupon not found",
    );
    await expectRefused(
      () => api("/api/admin/coupons/999999", "PUT", { isActive: true }),
      404,
      "Coupon not found",
    );
    await expectRefused(() => api(`/api/admin/coupons/${created.id}`, "PUT", {}), 400);
  });

  it("the tab's form creates with a toast, and refuses with field errors and the toasts of docs/product.md 'Messages'", async () => {
    const wanted = code();
    const fields = {
      intent: "create",
      code: wanted,
      type: "PERCENTAGE",
      amount: "12.5",
      maxUses: "0",
      expiryDate: "",
    };
    const created = await postForm("/admin/coupons", fields);
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/admin/coupons");
    expect(
      server.db
        .select({
          value: coupons.value,
          description: coupons.description,
          expiryDate: coupons.expiryDate,
        })
        .from(coupons)
        .where(eq(coupons.code, wanted))
        .all(),
    ).toEqual([{ value: 13, description: "13% off coupon", expiryDate: "2099-12-31" }]);

    const before = snapshot();
    const duplicate = await postForm("/admin/coupons", { ...fields, code: wanted.toLowerCase() });
    expect(duplicate.status).toBe(409);
    const duplicatePage = await duplicate.text();
    expect(duplicatePage).toContain("Duplicate Coupon Code");
    expect(duplicatePage).toContain(`A coupon with code &quot;${wanted}&quot; already exists.`);

    const invalid = await postForm("/admin/coupons", {
      ...fields,
      code: "",
      amount: "0",
      maxUses: "-1",
    });
    expect(invalid.status).toBe(400);
    const page = await invalid.text();
    for (const text of [
      "Code required",
      "Please enter a coupon code",
      "Discount amount must be a positive number",
      "Maximum uses must be a non-negative number",
    ]) {
      expect(page).toContain(text);
    }
    expect(page).toContain('aria-describedby="coupon-code-error"');
    const unknown = await postForm("/admin/coupons", { intent: "activate", couponId: "999999" });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Error activating coupon");
    expect(snapshot()).toEqual(before);
  });
});

describe("services", () => {
  const service = {
    name: "Drone footage",
    description: "Aerial shots",
    price: 300,
    duration: 45,
    isActive: true,
  };

  it("creates, edits, toggles and deletes an unused service", async () => {
    const created = await api("/api/services", "POST", { ...service, duration: null });
    expect(created.status).toBe(201);
    const body = (await created.json()) as Json;
    expect(body).toMatchObject({ ...service, duration: null });

    const edited = await api(`/api/services/${body.id}`, "PUT", { ...service, price: 325 });
    expect(await edited.json()).toMatchObject({ id: body.id, price: 325, duration: 45 });
    const toggled = await api(`/api/services/${body.id}/toggle-status`, "PATCH", {
      isActive: false,
    });
    expect(await toggled.json()).toMatchObject({ id: body.id, isActive: false });
    const all = (await (await api("/api/services?activeOnly=false")).json()) as Json[];
    expect(all.find((row) => row.id === body.id)).toMatchObject({ isActive: false });

    const deleted = await api(`/api/services/${body.id}`, "DELETE");
    expect(await deleted.json()).toEqual({ success: true, message: "Service deleted" });
    expect(serviceRow(body.id)).toBeUndefined();
  });

  it("deactivates a service a booking used instead of deleting it", async () => {
    const created = (await (await api("/api/services", "POST", service)).json()) as Json;
    const date = addStudioDays(earliestBookableDate(Date.now()), 30);
    const booking = await api(
      "/api/bookings",
      "POST",
      bookingPayload(date, "10:00", 2, { selectedServices: [created.id] }),
      customer.cookie,
    );
    expect(booking.status).toBe(201);
    const response = await api(`/api/services/${created.id}`, "DELETE");
    const answer = (await response.json()) as Json;
    expect(answer.success).toBe(false);
    expect(String(answer.message)).toMatch(/deactivated/);
    expect(serviceRow(created.id)).toMatchObject({ isActive: false });
  });

  it("refuses bad bodies with the messages of docs/product.md 'Validation' and unknown ids with 404", async () => {
    const cases: [Json, string][] = [
      [{ ...service, name: "" }, "Name, description, and price are required."],
      [{ ...service, price: null }, "Name, description, and price are required."],
      [{ ...service, price: 0 }, "Price must be a positive number."],
      [{ ...service, price: 12.5 }, "Price must be a positive number."],
      [{ ...service, duration: -5 }, "Duration must be a positive number."],
      [{ ...service, duration: "abc" }, "Duration must be a positive number."],
    ];
    for (const [body, message] of cases) {
      await expectRefused(() => api("/api/services", "POST", body), 400, message);
    }
    const existing = (await (await api("/api/services", "POST", service)).json()) as Json;
    await expectRefused(
      () => api(`/api/services/${existing.id}`, "PUT", { ...service, description: " " }),
      400,
      "Name, description, and price are required.",
    );
    await expectRefused(
      () => api(`/api/services/${existing.id}/toggle-status`, "PATCH", { isActive: "no" }),
      400,
    );
    await expectRefused(
      () => api("/api/services/999999", "PUT", service),
      404,
      "Service not found",
    );
    await expectRefused(() => api("/api/services/999999", "DELETE"), 404, "Service not found");
    await expectRefused(
      () => api("/api/services/999999/toggle-status", "PATCH", { isActive: true }),
      404,
      "Service not found",
    );
  });

  it("the tab's dialogs create, refuse with 'Validation Error', and 404 unknown services", async () => {
    const name = `Teleprompter ${uniqueUsername("svc")}`;
    const created = await postForm("/admin/services/new?page=1", {
      name,
      description: "Reads your script",
      price: "40",
      duration: "",
    });
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/admin/services?page=1");
    const row = server.db.select().from(services).where(eq(services.name, name)).get();
    expect(row).toMatchObject({ duration: null, isActive: true });

    const before = snapshot();
    const invalid = await postForm("/admin/services/new", {
      name: "",
      description: "",
      price: "",
      duration: "0",
    });
    expect(invalid.status).toBe(400);
    const page = await invalid.text();
    expect(page).toContain("Validation Error");
    expect(page).toContain("Name, description, and price are required.");
    expect(page).toContain("Duration must be a positive number.");
    const priceless = await postForm(`/admin/services/${row?.id}/edit`, {
      name,
      description: "Reads your script",
      price: "-3",
      duration: "",
    });
    expect(priceless.status).toBe(400);
    expect(await priceless.text()).toContain("Price must be a positive number.");
    for (const path of [
      "/admin/services/999999/edit",
      "/admin/services/999999/delete",
      "/admin/services/abc/edit",
    ]) {
      const response = await fetch(`${server.url}${path}`, { headers: { Cookie: admin.cookie } });
      expect(response.status, path).toBe(404);
    }
    expect((await postForm("/admin/services/999999/delete", {})).status).toBe(404);
    expect(snapshot()).toEqual(before);

    const removed = await postForm(`/admin/services/${row?.id}/delete`, {});
    expect(removed.status).toBe(302);
    expect(serviceRow(row?.id)).toBeUndefined();
  });
});
