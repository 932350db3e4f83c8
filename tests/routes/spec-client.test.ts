import { describe, expect, it } from "vitest";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { actorsFor } from "#tests/setup/actors";
import { bookingPayload, cardBody } from "#tests/setup/payloads";
import { registrationPayload } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";
import { SpecClientError, specClient } from "#tests/setup/spec-client";

/**
 * A client written to the spec's section 7 alone (tests/setup/spec-client.ts) drives a
 * customer's and an admin's whole journey against the built server. It reads a 409 as an answer
 * to inspect, so every refusal it must notice has to come as another status (docs/product.md
 * "The JSON API": 409 only for a duplicate coupon code).
 */
const server = appForThisFile();
const { signUpAdmin } = actorsFor(server);
type Json = Record<string, unknown>;

const day = (offset: number) => addStudioDays(earliestBookableDate(Date.now()), offset);

async function refusal(call: Promise<unknown>): Promise<SpecClientError> {
  const outcome = await call.then(
    (answer) => answer,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(SpecClientError);
  return outcome as SpecClientError;
}

describe("a client written to the spec", () => {
  it("takes a customer from registering to a paid booking, and notices every refusal", async () => {
    const client = specClient(server.url);
    expect(await client.currentUser()).toBeNull();
    const payload = registrationPayload();
    const user = (await client.register(payload)) as Json;
    expect(user).toMatchObject({ username: payload.username, isAdmin: false });
    expect(await client.currentUser()).toMatchObject({ id: user.id });

    // A taken username is an error, not an answer.
    const taken = await refusal(specClient(server.url).register(payload));
    expect(taken.message).toBe("Username already exists");

    const services = (await client.services(true)) as Json[];
    expect(Array.isArray(services)).toBe(true);
    const unknownCoupon = (await client.validateCoupon("NO-SUCH-CODE")) as Json;
    expect(unknownCoupon).toMatchObject({ isValid: false, coupon: null });

    const date = day(40);
    expect(await client.checkConflicts(date, "10:00", 2)).toMatchObject({ hasConflict: false });
    const booking = (await client.createBooking(bookingPayload(date, "10:00", 2))) as Json;
    expect(booking).toMatchObject({ id: expect.any(Number), status: "PENDING_PAYMENT" });
    expect(await client.checkConflicts(date, "10:00", 2)).toMatchObject({ hasConflict: true });

    // Someone else asking for the same time gets an error the client shows, not a success.
    const other = specClient(server.url);
    await other.register(registrationPayload());
    const lost = await refusal(other.createBooking(bookingPayload(date, "11:00", 2)));
    expect(lost.message).toBe(
      "The selected time slot conflicts with an existing booking. Please select a different time.",
    );

    const paid = (await client.payDirect(Number(booking.id), cardBody(booking.totalCost))) as Json;
    expect(paid).toMatchObject({ transactionId: expect.any(String) });
    const mine = (await client.bookings()) as Json[];
    expect(mine.find((row) => row.id === booking.id)).toMatchObject({ status: "PENDING" });

    // Paying again is a failure the client reports as one ('Payment Successful!' before).
    const again = await refusal(client.payDirect(Number(booking.id), cardBody(booking.totalCost)));
    expect(again.status).not.toBe(409);

    const profile = (await client.updateProfile(Number(user.id), {
      firstName: "Grace",
      lastName: "Hopper",
      businessName: "",
      phoneNumber: "404-555-0199",
      email: "grace@example.com",
      isStakeholder: true,
    })) as Json;
    expect(profile).toMatchObject({ firstName: "Grace", isStakeholder: true });

    await client.logout();
    expect(await client.currentUser()).toBeNull();
  });

  it("takes an admin through the lists, a booking's workflow, coupons and services", async () => {
    const admin = await signUpAdmin();
    const client = specClient(server.url);
    const signedIn = (await client.login(admin.username, "correct-horse-battery")) as Json;
    expect(signedIn).toMatchObject({ isAdmin: true });

    const customer = specClient(server.url);
    const customerUser = (await customer.register(registrationPayload())) as Json;
    const booking = (await customer.createBooking(bookingPayload(day(41), "14:00", 2))) as Json;
    await customer.payDirect(Number(booking.id), cardBody(booking.totalCost));

    // The lists come whole, as the spec's client expects.
    const users = (await client.admin.users()) as Json[];
    expect(users.some((row) => row.id === customerUser.id)).toBe(true);
    const bookings = (await client.admin.bookings()) as Json[];
    expect(bookings.some((row) => row.id === booking.id)).toBe(true);
    const payments = (await client.admin.payments()) as Json[];
    expect(payments.some((row) => row.bookingId === booking.id)).toBe(true);
    expect(Array.isArray(await client.admin.coupons())).toBe(true);
    expect(Array.isArray(await client.admin.techAssistance())).toBe(true);

    expect(await client.admin.changeBookingStatus(Number(booking.id), "CONFIRMED")).toMatchObject({
      id: booking.id,
      status: "CONFIRMED",
    });
    // A status change the workflow refuses is an error the client shows.
    const backwards = await refusal(
      client.admin.changeBookingStatus(Number(booking.id), "PENDING"),
    );
    expect(backwards.status).not.toBe(409);

    expect(await client.admin.membership(Number(customerUser.id), true)).toMatchObject({
      isMember: true,
    });
    expect(await client.admin.makeAdmin(Number(customerUser.id))).toMatchObject({
      isAdmin: true,
    });

    const code = `SPEC${Date.now().toString(36).toUpperCase()}`;
    const coupon = {
      code,
      description: "10% off coupon",
      type: "PERCENTAGE",
      value: 10,
      maxUses: 0,
      expiryDate: new Date(Date.UTC(2099, 0, 1)).toISOString(),
      isActive: true,
      createdAt: new Date().toISOString(),
    };
    const created = (await client.admin.createCoupon(coupon)) as Json;
    expect(created).toMatchObject({ code, isActive: true });
    // The one 409 the spec knows: a duplicate code, handed back raw.
    const duplicate = await client.admin.createCoupon(coupon);
    expect(duplicate).toBeInstanceOf(Response);
    expect((duplicate as Response).status).toBe(409);
    expect(await client.admin.deactivateCoupon(Number(created.id))).toMatchObject({
      isActive: false,
    });

    const service = (await client.admin.createService({
      name: `Spec mic ${code}`,
      description: "An extra microphone",
      price: 25,
      duration: 60,
      isActive: true,
    })) as Json;
    expect(service).toMatchObject({ id: expect.any(Number), isActive: true });
    const all = (await client.services(false)) as Json[];
    expect(all.some((row) => row.id === service.id)).toBe(true);
  });
});
