import ipaddr from "ipaddr.js";

/**
 * The rate-limit key of a client address: an IPv4 address as it is, an IPv6 address by its
 * /64 (docs/product.md "Limits"). One IPv6 customer line is handed a whole /64, so counting
 * single addresses would give a script 2^64 fresh budgets. An IPv4 address written as IPv6
 * (::ffff:1.2.3.4, as Node reports it on a dual-stack socket) counts as the IPv4 address.
 * Anything that is not an address ("unknown") is its own key.
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(":")}::/64`;
}
