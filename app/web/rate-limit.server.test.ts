import { describe, expect, it } from "vitest";
import { env } from "#app/env.server";
import { addressKey, takeBookingChange } from "#app/web/rate-limit.server";

describe("addressKey", () => {
  it("counts an IPv4 address as itself, also when it comes IPv4-mapped", () => {
    expect(addressKey("203.0.113.5")).toBe("203.0.113.5");
    expect(addressKey("::ffff:203.0.113.5")).toBe("203.0.113.5");
    expect(addressKey("::ffff:cb00:7105")).toBe("203.0.113.5");
  });

  it("counts an IPv6 address by its /64, however it is written", () => {
    const key = addressKey("2001:db8:1:2:3:4:5:6");
    expect(key).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:1:2::1")).toBe(key);
    expect(addressKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe(key);
    expect(addressKey("2001:db8:1:3::1")).not.toBe(key);
    expect(addressKey("::1")).toBe("::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80::/64");
  });

  it("keeps what it cannot read as it is", () => {
    expect(addressKey("unknown")).toBe("unknown");
    expect(addressKey("")).toBe("");
  });
});

describe("takeBookingChange", () => {
  // The configured BOOKING_RATE_LIMIT (24 unless the environment says otherwise).
  const LIMIT = env.BOOKING_RATE_LIMIT;

  it("counts sessions; a request that does not fit is refused whole and spends nothing", async () => {
    const address = "192.0.2.10";
    const account = 900_001;
    expect(await takeBookingChange(address, account, LIMIT - 2)).toBeNull();
    // Three more would pass the limit by one: refused, nothing taken.
    expect(await takeBookingChange(address, account, 3)).toBeGreaterThan(0);
    // So two still fit, exactly reaching it; then nothing does.
    expect(await takeBookingChange(address, account, 2)).toBeNull();
    expect(await takeBookingChange(address, account, 1)).toBeGreaterThan(0);
  });

  it("refuses when either budget is short, and gives back what it took from the other", async () => {
    const shared = "192.0.2.11";
    expect(await takeBookingChange(shared, 900_002, LIMIT)).toBeNull();
    // The address is spent: a fresh account is refused there...
    expect(await takeBookingChange(shared, 900_003, 1)).toBeGreaterThan(0);
    // ...and its own budget is untouched: the whole of it fits from another address.
    expect(await takeBookingChange("192.0.2.12", 900_003, LIMIT)).toBeNull();
  });
});
