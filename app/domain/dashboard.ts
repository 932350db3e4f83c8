/**
 * The customer dashboard's tabs (`?tab=`): My Sessions, Profile Settings, Help & Support.
 * The server loads only the open tab's data; the section's links name the same tabs.
 */
export const DASHBOARD_TABS = ["bookings", "profile", "support"] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];
