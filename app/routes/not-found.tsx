import { data } from "react-router";
import { NotFound } from "#app/components/not-found";

/** Catch-all: every unknown path answers 404 with the not-found screen. */
export function loader() {
  return data(null, { status: 404 });
}

export function action() {
  return data(null, { status: 404 });
}

export const meta = () => [
  { title: "404 Page Not Found | ATL Creator Studio" },
  { name: "description", content: "This page does not exist at ATL Creator Studio." },
];

export default function NotFoundRoute() {
  return <NotFound />;
}
