/** Apart from pricing.ts, so the footer loads no pricing rules (decision 0094). */
export const HOURLY_RATES = { stakeholder: 150, nonMember: 200 } as const;
