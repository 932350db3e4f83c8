export const CUSTOMER_TYPES = ["STAKEHOLDER", "MEMBER", "NON_MEMBER"] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

/** Taken when the payment was recorded (migration 0005's trigger), never later. */
export const CUSTOMER_TYPE_LABELS: Record<CustomerType, string> = {
  STAKEHOLDER: "Stakeholder",
  MEMBER: "Member",
  NON_MEMBER: "Non-Member",
};

/** As the rollup does. */
export function customerTypeOf(value: string | null): CustomerType {
  return value === "STAKEHOLDER" || value === "MEMBER" ? value : "NON_MEMBER";
}

export const UNKNOWN_CLIENT = "Unknown client";

export function clientName(firstName: string | null, lastName: string | null): string {
  const name = [firstName, lastName]
    .map((part) => (part ?? "").trim())
    .filter(Boolean)
    .join(" ");
  return name === "" ? UNKNOWN_CLIENT : name;
}
