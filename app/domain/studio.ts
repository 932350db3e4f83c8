/**
 * The studio's own facts: its name, where it is and how to reach it. The site's pages, the
 * e-mails and the calendar files all read them from here. Its clock is STUDIO_TIME_ZONE, in
 * studio-time.ts (kept there so the pages that only show these facts load no date code).
 */
export const STUDIO = {
  name: "ATL Creator Studio",
  street: "675 Ponce de Leon Ave NE",
  locality: "Atlanta, GA 30308",
  email: "hello@atlcreatorstudio.com",
  phone: "(404) 555-0147",
  phoneHref: "tel:+14045550147",
} as const;

/** The studio's address on one line: a calendar event's location, an e-mail's "Where". */
export function studioAddress(): string {
  return `${STUDIO.name}, ${STUDIO.street}, ${STUDIO.locality}`;
}
