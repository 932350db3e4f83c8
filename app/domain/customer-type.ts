/** Who a payment came from, for the sales figures (stakeholder first, then member). */
export const CUSTOMER_TYPES = ["STAKEHOLDER", "MEMBER", "NON_MEMBER"] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

/**
 * The Sales tab's Type badge (docs/product.md "Screens"): who a payment came from, taken when it
 * was recorded (migration 0005's trigger): Stakeholder when the booking was at the stakeholder
 * rate, else Member when the client was a member, else Non-Member.
 */
export const CUSTOMER_TYPE_LABELS: Record<CustomerType, string> = {
  STAKEHOLDER: "Stakeholder",
  MEMBER: "Member",
  NON_MEMBER: "Non-Member",
};

/** A row whose type is somehow missing counts as Non-Member, as the rollup does. */
export function customerTypeOf(value: string | null): CustomerType {
  return value === "STAKEHOLDER" || value === "MEMBER" ? value : "NON_MEMBER";
}

export const UNKNOWN_CLIENT = "Unknown client";

/** The client's name from the booking, or 'Unknown client' when there is none to show. */
export function clientName(firstName: string | null, lastName: string | null): string {
  const name = [firstName, lastName]
    .map((part) => (part ?? "").trim())
    .filter(Boolean)
    .join(" ");
  return name === "" ? UNKNOWN_CLIENT : name;
}
