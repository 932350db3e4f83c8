import { describe, expect, it } from "vitest";
import { addressKey } from "#app/web/address-key.server";

describe("addressKey", () => {
  it("keeps an IPv4 address, also when Node reports it as IPv4-mapped IPv6", () => {
    expect(addressKey("198.51.100.7")).toBe("198.51.100.7");
    expect(addressKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
  });

  it("counts every IPv6 address of one /64 as one client, and another /64 as another", () => {
    const key = addressKey("2001:db8:1:2::1");
    expect(addressKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe(key);
    expect(addressKey("2001:0db8:0001:0002:0:0:0:9")).toBe(key);
    expect(key).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:3::1")).not.toBe(key);
  });

  it("leaves what is not an address as it is", () => {
    expect(addressKey("unknown")).toBe("unknown");
  });
});
