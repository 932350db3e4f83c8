/** docs/product.md "Screens". */
export const MEMBERSHIP_FILTERS = ["all", "members", "non-members"] as const;
export type MembershipFilter = (typeof MEMBERSHIP_FILTERS)[number];

export const MEMBERSHIP_FILTER_LABELS: Record<MembershipFilter, string> = {
  all: "All Users",
  members: "Members Only",
  "non-members": "Non-Members Only",
};

export const MEMBERSHIP_EMPTY_TEXTS: Record<MembershipFilter, string> = {
  all: "No users found",
  members: "No members found",
  "non-members": "No non-members found",
};
