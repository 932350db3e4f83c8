/** The server loads only the open tab's data. */
export const DASHBOARD_TABS = ["bookings", "profile", "support"] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];
