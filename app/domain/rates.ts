/** Apart from pricing.ts, so the footer and the landing page load no pricing rules (decision 0094). */
export const HOURLY_RATES = { stakeholder: 150, nonMember: 200 } as const;
