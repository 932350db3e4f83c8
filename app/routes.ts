import { type RouteConfig, index, prefix, route } from "@react-router/dev/routes";

/** The whole URL map of the site. File names mirror URLs. */
export default [
  index("routes/home.tsx"),
  route("auth", "routes/auth.tsx"),
  route("dashboard", "routes/dashboard.tsx"),
  route("logout", "routes/logout.tsx"),
  route("admin", "routes/admin.tsx", { id: "admin" }),
  route("admin/dashboard", "routes/admin.tsx", { id: "admin-dashboard" }),
  route("healthz", "routes/healthz.ts"),
  ...prefix("api", [
    route("user", "routes/api/user.ts"),
    route("login", "routes/api/login.ts"),
    route("register", "routes/api/register.ts"),
    route("logout", "routes/api/logout.ts"),
  ]),
  // /booking-canceled is specified to show the not-found screen, like any unknown path.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
