/** Apart from studio-time.ts, so the pages that only show these facts load no date code. */
export const STUDIO = {
  name: "ATL Creator Studio",
  street: "675 Ponce de Leon Ave NE",
  locality: "Atlanta, GA 30308",
  email: "hello@atlcreatorstudio.com",
  phone: "(404) 555-0147",
  phoneHref: "tel:+14045550147",
} as const;

export function studioAddress(): string {
  return `${STUDIO.name}, ${STUDIO.street}, ${STUDIO.locality}`;
}
