/**
 * The studio's hourly rates in whole dollars, the pricing rules' (pricing.ts) own figures. A
 * module of their own so the pages that only show them (every page's footer and the landing
 * page) do not load the pricing rules with them (decision 0094).
 */
export const HOURLY_RATES = { stakeholder: 150, nonMember: 200 } as const;
