import { describe, expect, it } from "vitest";
import { addressKey } from "#app/web/rate-limit.server";

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
