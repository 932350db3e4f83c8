/**
 * The studio's own facts: its name, where it is, how to reach it, and the clock it keeps. The
 * site's pages, the e-mails and the calendar files all read them from here.
 */
export const STUDIO = {
  name: "ATL Creator Studio",
  street: "675 Ponce de Leon Ave NE",
  locality: "Atlanta, GA 30308",
  email: "hello@atlcreatorstudio.com",
  phone: "(404) 555-0147",
  phoneHref: "tel:+14045550147",
  /** Every date and time a person types or reads is wall time here (see studio-time.ts). */
  timeZone: "America/New_York",
} as const;

/** The studio's address on one line: a calendar event's location, an e-mail's "Where". */
export const STUDIO_ADDRESS = `${STUDIO.name}, ${STUDIO.street}, ${STUDIO.locality}`;
