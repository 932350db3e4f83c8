import { LandingPage } from "../components/landing/landing-page";
import { useRootData } from "../root";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => [
  { title: "ATL Creator Studio | Podcast & video recording studio in Atlanta" },
  {
    name: "description",
    content:
      "Book a professional podcast and video recording studio in Atlanta by the hour. Pro equipment, an in-house engineer with every session, open 24/7.",
  },
];

export default function Home() {
  const user = useRootData()?.user ?? null;
  return <LandingPage user={user} />;
}
