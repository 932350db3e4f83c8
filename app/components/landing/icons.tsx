import { LineIcon, PLAY_PATH } from "#app/components/landing/line-icon";

/** A table of paths keeps them a few hundred bytes; every icon is decorative (aria-hidden). */
const PATHS = {
  mic: "M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3ZM5.5 11.5a6.5 6.5 0 0 0 13 0M12 18v3M8.5 21h7",
  camera:
    "M3.5 8A1.5 1.5 0 0 1 5 6.5h9A1.5 1.5 0 0 1 15.5 8v8a1.5 1.5 0 0 1-1.5 1.5H5A1.5 1.5 0 0 1 3.5 16ZM15.5 10.5l5-3v9l-5-3",
  light: "M7 3h10l-2 7H9ZM12 10v11M8 21h8M4 6.5 2.5 5.5M20 6.5l1.5-1M5 11l-1.5.8M19 11l1.5.8",
  calendar:
    "M4 6.5A1.5 1.5 0 0 1 5.5 5h13A1.5 1.5 0 0 1 20 6.5v12a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 18.5ZM4 10h16M8 3v4M16 3v4M8 14h2M14 14h2M8 17h2",
  headphones:
    "M4 16v-3a8 8 0 0 1 16 0v3M4 15h3v6H5.5A1.5 1.5 0 0 1 4 19.5ZM20 15h-3v6h1.5a1.5 1.5 0 0 0 1.5-1.5Z",
  briefcase:
    "M4 8.5A1.5 1.5 0 0 1 5.5 7h13A1.5 1.5 0 0 1 20 8.5v10a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 18.5ZM9 7V5.5A1.5 1.5 0 0 1 10.5 4h3A1.5 1.5 0 0 1 15 5.5V7M4 12.5h16M11 12.5v1.5h2v-1.5",
  waveform: "M3 12h1M6.5 8v8M10 4v16M13.5 7v10M17 10v4M20.5 12h.5",
  graduation:
    "M2.5 9 12 4.5 21.5 9 12 13.5ZM6.5 11v5c1.5 1.5 3.5 2.5 5.5 2.5s4-1 5.5-2.5v-5M21.5 9v5",
  community:
    "M8.5 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM2.5 20a6 6 0 0 1 12 0M16 5.2a3 3 0 0 1 0 5.6M17.5 14.2a6 6 0 0 1 4 5.8",
  check: "m5 12.5 4.5 4.5L19 7.5",
  close: "M6 6l12 12M18 6 6 18",
  play: PLAY_PATH,
  external:
    "M14 4h6v6M20 4l-9 9M18 14v4.5a1.5 1.5 0 0 1-1.5 1.5h-11A1.5 1.5 0 0 1 4 18.5v-11A1.5 1.5 0 0 1 5.5 6H10",
  mail: "M3.5 6.5A1.5 1.5 0 0 1 5 5h14a1.5 1.5 0 0 1 1.5 1.5v11A1.5 1.5 0 0 1 19 19H5a1.5 1.5 0 0 1-1.5-1.5ZM4 7l8 6 8-6",
  phone:
    "M5 4h3.5l1.5 4.5-2.2 1.4a11 11 0 0 0 6.3 6.3l1.4-2.2L20 15.5V19a1 1 0 0 1-1 1A16 16 0 0 1 4 5a1 1 0 0 1 1-1Z",
  pin: "M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21Zm0-9a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Z",
  clock: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18ZM12 7v5l3.5 2",
  info: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18ZM12 11v5.5M12 7.5v.5",
  shield: "M12 3 4.5 6v5.5c0 4.5 3.2 8.2 7.5 9.5 4.3-1.3 7.5-5 7.5-9.5V6Zm-3.5 9 2.5 2.5 4.5-4.5",
  user: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8ZM4.5 20.5a7.5 7.5 0 0 1 15 0",
  chevron: "m6 9 6 6 6-6",
  arrow: "M5 12h14M13 6l6 6-6 6",
  star: "m12 3.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9Z",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({
  name,
  ...look
}: { name: IconName } & Omit<Parameters<typeof LineIcon>[0], "path">) {
  return <LineIcon path={PATHS[name]} {...look} />;
}

export function SocialIcon({ network }: { network: "instagram" | "youtube" | "linkedin" }) {
  const paths = {
    instagram:
      "M7.5 3h9A4.5 4.5 0 0 1 21 7.5v9a4.5 4.5 0 0 1-4.5 4.5h-9A4.5 4.5 0 0 1 3 16.5v-9A4.5 4.5 0 0 1 7.5 3Zm0 1.8a2.7 2.7 0 0 0-2.7 2.7v9a2.7 2.7 0 0 0 2.7 2.7h9a2.7 2.7 0 0 0 2.7-2.7v-9a2.7 2.7 0 0 0-2.7-2.7ZM12 7.6a4.4 4.4 0 1 1 0 8.8 4.4 4.4 0 0 1 0-8.8Zm0 1.8a2.6 2.6 0 1 0 0 5.2 2.6 2.6 0 0 0 0-5.2Zm4.7-3a1.05 1.05 0 1 1 0 2.1 1.05 1.05 0 0 1 0-2.1Z",
    youtube:
      "M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 0 0 2.4 7.2 26 26 0 0 0 2 12a26 26 0 0 0 .4 4.8 2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8A26 26 0 0 0 22 12a26 26 0 0 0-.4-4.8ZM10 15V9l5.2 3Z",
    linkedin:
      "M4.5 3A1.5 1.5 0 0 0 3 4.5v15A1.5 1.5 0 0 0 4.5 21h15a1.5 1.5 0 0 0 1.5-1.5v-15A1.5 1.5 0 0 0 19.5 3Zm2.8 4.2a1.6 1.6 0 1 1 0 3.2 1.6 1.6 0 0 1 0-3.2ZM5.9 11.6h2.8V18H5.9Zm4.6 0h2.7v.9c.4-.7 1.3-1.1 2.3-1.1 2 0 2.6 1.2 2.6 3.3V18h-2.8v-2.9c0-.9-.1-1.6-1-1.6s-1.1.7-1.1 1.6V18h-2.7Z",
  } as const;
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="currentColor">
      <path fillRule="evenodd" d={paths[network]} />
    </svg>
  );
}
