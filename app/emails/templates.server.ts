import { TZDate, tzName } from "@date-fns/tz";
import { format } from "date-fns";
import type { STATUS_LABELS } from "#app/domain/booking-status";
import { STUDIO, studioAddress } from "#app/domain/studio";
import type { RefundQuote } from "#app/domain/cancellation";
import { formatDollars } from "#app/domain/pricing";
import { STUDIO_TIME_ZONE, studioInstant, studioSession } from "#app/domain/studio-time";
import { formatBytes } from "#app/domain/session-files";

/**
 * Every time is studio time with its zone abbreviation, whatever the server's zone. The HTML is
 * simple on purpose (no tables, inline styles) so it reads well in any client and screen reader.
 */
export type EmailContent = { subject: string; html: string; text: string };

/** Stated here, not the database's row type: rendering depends on the domain only. */
export type EmailBooking = {
  id: number;
  status: keyof typeof STATUS_LABELS;
  firstName: string;
  recordingDate: string;
  recordingTime: string;
  hoursNeeded: string;
  guestCount: string;
  startsAt: number;
  endsAt: number;
  totalCost: number;
  discountAmount: number;
  couponCode: string | null;
  isRetainer: boolean;
  retainerHoursDrawn: number;
  retainerTotalHours: number;
};

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

const zoned = (epochMs: number) => new TZDate(epochMs, STUDIO_TIME_ZONE);
const zoneOf = (epochMs: number) => tzName(STUDIO_TIME_ZONE, new Date(epochMs), "short");

export function formatStudioDateTime(epochMs: number): string {
  return `${format(zoned(epochMs), "MMM d, yyyy, h:mm a")} ${zoneOf(epochMs)}`;
}

/** A session spanning a clock change names both zones, so its times are never ambiguous. */
export function formatSessionTime(
  booking: Pick<EmailBooking, "recordingDate" | "recordingTime" | "hoursNeeded">,
): string {
  const { startsAt, endsAt } = studioSession(
    booking.recordingDate,
    booking.recordingTime,
    Number(booking.hoursNeeded),
  );
  const day = (epochMs: number) => format(zoned(epochMs), "EEEE, MMMM d, yyyy");
  const time = (epochMs: number) => format(zoned(epochMs), "h:mm a");
  const startZone = zoneOf(startsAt);
  const endZone = zoneOf(endsAt);
  const start = startZone === endZone ? time(startsAt) : `${time(startsAt)} ${startZone}`;
  const end = day(endsAt) === day(startsAt) ? time(endsAt) : `${day(endsAt)}, ${time(endsAt)}`;
  return `${day(startsAt)}, ${start} – ${end} ${endZone}`;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const CARD_BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  jcb: "JCB",
  diners: "Diners Club",
  unionpay: "UnionPay",
};

function cardLabel(brand: string, last4: string): string {
  const key = brand.trim().toLowerCase();
  const name =
    CARD_BRANDS[key] ??
    (key === "" || key === "unknown" ? "Card" : key.charAt(0).toUpperCase() + key.slice(1));
  return last4 ? `${name} ending in ${last4}` : name;
}

type Detail = { label: string; value: string };

function bookingDetails(booking: EmailBooking): Detail[] {
  const hours = Number(booking.hoursNeeded);
  const guests = Number(booking.guestCount);
  const details: Detail[] = [
    { label: "Booking", value: `#${booking.id}` },
    { label: "When (studio time)", value: formatSessionTime(booking) },
    {
      label: "Hours",
      value: Number.isFinite(hours) ? plural(hours, "hour", "hours") : booking.hoursNeeded,
    },
    { label: "Guests", value: Number.isFinite(guests) ? String(guests) : booking.guestCount },
    { label: "Where", value: studioAddress() },
  ];
  if (booking.isRetainer) {
    details.push({
      label: "Package",
      value: `Retainer: ${plural(booking.retainerTotalHours, "studio hour", "studio hours")} to use within 30 days`,
    });
  }
  if (booking.retainerHoursDrawn > 0) {
    details.push({
      label: "From your retainer",
      value: plural(booking.retainerHoursDrawn, "hour", "hours"),
    });
  }
  if (booking.discountAmount > 0) {
    details.push({
      label: booking.couponCode ? `Discount (${booking.couponCode})` : "Discount",
      value: `−${formatDollars(booking.discountAmount)}`,
    });
  }
  details.push({ label: "Total", value: formatDollars(booking.totalCost) });
  return details;
}

type Block =
  | { kind: "paragraph"; text: string }
  | { kind: "button"; label: string; href: string }
  | { kind: "details"; heading: string; items: Detail[] };

type Email = { subject: string; heading: string; greeting: string; blocks: Block[] };

const FONT =
  "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const STYLE = {
  body: `margin:0;padding:0;background-color:#f4f4f5;color:#18181b;${FONT};font-size:16px;line-height:1.5`,
  main: "max-width:560px;margin:0 auto;padding:32px 24px;background-color:#ffffff",
  h1: "margin:0 0 16px;font-size:24px;line-height:1.3;color:#18181b",
  h2: "margin:24px 0 8px;font-size:18px;line-height:1.3;color:#18181b",
  p: "margin:0 0 16px",
  button:
    "display:inline-block;padding:12px 20px;border-radius:6px;background-color:#1d4ed8;color:#ffffff;font-weight:600;text-decoration:none",
  dl: "margin:0 0 16px;padding:0",
  dt: "margin:8px 0 0;font-weight:600",
  dd: "margin:0",
  footer:
    "margin:32px 0 0;padding-top:16px;border-top:1px solid #e4e4e7;font-size:14px;color:#52525b",
  link: "color:#1d4ed8",
};

function htmlBlock(block: Block): string {
  switch (block.kind) {
    case "paragraph":
      return `<p style="${STYLE.p}">${escapeHtml(block.text)}</p>`;
    case "button":
      return `<p style="${STYLE.p}"><a href="${escapeHtml(block.href)}" style="${STYLE.button}">${escapeHtml(block.label)}</a></p>
<p style="${STYLE.p};font-size:14px">Or open this link: <a href="${escapeHtml(block.href)}" style="${STYLE.link}">${escapeHtml(block.href)}</a></p>`;
    case "details":
      return `<h2 style="${STYLE.h2}">${escapeHtml(block.heading)}</h2>
<dl style="${STYLE.dl}">
${block.items
  .map(
    (item) =>
      `<dt style="${STYLE.dt}">${escapeHtml(item.label)}</dt><dd style="${STYLE.dd}">${escapeHtml(item.value)}</dd>`,
  )
  .join("\n")}
</dl>`;
  }
}

function renderHtml(email: Email): string {
  const blocks = email.blocks.map(htmlBlock);
  const mailto = `mailto:${STUDIO.email}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(email.subject)}</title>
</head>
<body style="${STYLE.body}">
<div role="article" aria-label="${escapeHtml(email.subject)}" lang="en" style="${STYLE.main}">
<h1 style="${STYLE.h1}">${escapeHtml(email.heading)}</h1>
<p style="${STYLE.p}">${escapeHtml(email.greeting)}</p>
${blocks.join("\n")}
<footer style="${STYLE.footer}">
<p style="margin:0"><strong>${escapeHtml(STUDIO.name)}</strong><br>
${escapeHtml(STUDIO.street)}<br>
${escapeHtml(STUDIO.locality)}</p>
<p style="margin:8px 0 0"><a href="${escapeHtml(STUDIO.phoneHref)}" style="${STYLE.link}">${escapeHtml(STUDIO.phone)}</a> · <a href="${escapeHtml(mailto)}" style="${STYLE.link}">${escapeHtml(STUDIO.email)}</a></p>
</footer>
</div>
</body>
</html>
`;
}

function textBlock(block: Block): string {
  switch (block.kind) {
    case "paragraph":
      return block.text;
    case "button":
      return `${block.label}:\n${block.href}`;
    case "details":
      return [
        block.heading,
        "-".repeat(block.heading.length),
        ...block.items.map((item) => `${item.label}: ${item.value}`),
      ].join("\n");
  }
}

function renderText(email: Email): string {
  const blocks = email.blocks.map(textBlock);
  const footer = [
    "--",
    STUDIO.name,
    STUDIO.street,
    STUDIO.locality,
    `${STUDIO.phone} · ${STUDIO.email}`,
  ].join("\n");
  return `${[email.heading, email.greeting, ...blocks, footer].join("\n\n")}\n`;
}

function render(email: Email): EmailContent {
  return { subject: email.subject, html: renderHtml(email), text: renderText(email) };
}

export function bookingReceivedEmail({
  booking,
  payUrl,
  holdExpiresAt,
}: {
  booking: EmailBooking;
  payUrl: string;
  holdExpiresAt: number | null;
}): EmailContent {
  const details = bookingDetailsBlock(booking);
  const greeting = `Hi ${booking.firstName},`;

  if (booking.status === "PENDING_PAYMENT") {
    const hold =
      holdExpiresAt === null
        ? "Your time slot is held for a short while until you pay."
        : `Your time slot is held for you until ${formatStudioDateTime(holdExpiresAt)}. If payment has not arrived by then, the slot is released for others to book.`;
    return render({
      subject: `Complete your booking: pay ${formatDollars(booking.totalCost)} to keep your session`,
      heading: "We have received your booking",
      greeting,
      blocks: [
        {
          kind: "paragraph",
          text: `Thank you for booking ${STUDIO.name}. To keep your session, please pay ${formatDollars(booking.totalCost)}.`,
        },
        { kind: "paragraph", text: hold },
        { kind: "button", label: `Pay ${formatDollars(booking.totalCost)} now`, href: payUrl },
        details,
      ],
    });
  }

  if (booking.status === "CONFIRMED") {
    return render({
      subject: `Your session on ${sessionDay(booking)} is confirmed`,
      heading: "Your session is confirmed",
      greeting,
      blocks: [
        {
          kind: "paragraph",
          text: `Thank you for booking ${STUDIO.name}. There is nothing to pay: your session is confirmed and we look forward to seeing you.`,
        },
        details,
      ],
    });
  }

  return render({
    subject: "We have received your booking",
    heading: "We have received your booking",
    greeting,
    blocks: [
      {
        kind: "paragraph",
        text: `Thank you for booking ${STUDIO.name}. Our staff will review your booking and e-mail you once it is confirmed.`,
      },
      details,
    ],
  });
}

/** docs/product.md "Weekly series": one pay link for all sessions while any waits for payment. */
export function seriesReceivedEmail({
  bookings,
  payUrl,
  holdExpiresAt,
}: {
  bookings: readonly EmailBooking[];
  payUrl: string;
  holdExpiresAt: number | null;
}): EmailContent {
  const first = bookings[0];
  if (!first) throw new Error("A series has sessions");
  const toPay = bookings
    .filter((booking) => booking.status === "PENDING_PAYMENT")
    .reduce((sum, booking) => sum + booking.totalCost, 0);
  const sessions = bookings.map(
    (booking, i): Block => ({
      kind: "details",
      heading: `Session ${i + 1} of ${bookings.length}`,
      items: bookingDetails(booking),
    }),
  );
  const intro = `Thank you for booking a series of ${bookings.length} sessions at ${STUDIO.name}, starting ${sessionDay(first)}.`;
  if (toPay > 0) {
    const hold =
      holdExpiresAt === null
        ? "Your time slots are held for a short while until you pay."
        : `Your time slots are held for you until ${formatStudioDateTime(holdExpiresAt)}. If payment has not arrived by then, they are released for others to book.`;
    return render({
      subject: `Complete your booking: pay ${formatDollars(toPay)} to keep your ${bookings.length} sessions`,
      heading: "We have received your series",
      greeting: `Hi ${first.firstName},`,
      blocks: [
        {
          kind: "paragraph",
          text: `${intro} To keep them, please pay ${formatDollars(toPay)} in one payment.`,
        },
        { kind: "paragraph", text: hold },
        { kind: "button", label: `Pay ${formatDollars(toPay)} now`, href: payUrl },
        ...sessions,
      ],
    });
  }
  return render({
    subject: `Your ${bookings.length} sessions from ${sessionDay(first)} are confirmed`,
    heading: "Your series is confirmed",
    greeting: `Hi ${first.firstName},`,
    blocks: [
      {
        kind: "paragraph",
        text: `${intro} There is nothing to pay: your sessions are confirmed.`,
      },
      ...sessions,
    ],
  });
}

export function paymentReceivedEmail({
  booking,
  amount,
  brand,
  last4,
  receiptNumber,
}: {
  booking: EmailBooking;
  amount: number;
  brand: string;
  last4: string;
  /** docs/product.md "Receipts". */
  receiptNumber?: string;
}): EmailContent {
  return render({
    subject: `Payment received for your session on ${sessionDay(booking)}`,
    heading: "Thank you, your payment is received",
    greeting: `Hi ${booking.firstName},`,
    blocks: [
      {
        kind: "paragraph",
        text: `We received your payment of ${formatDollars(amount)} (${cardLabel(brand, last4)}) for booking #${booking.id}.`,
      },
      ...(receiptNumber
        ? [
            {
              kind: "paragraph" as const,
              text: `Your receipt ${receiptNumber} is attached as a PDF for your records.`,
            },
          ]
        : []),
      {
        kind: "paragraph",
        text: "Your booking is now pending review by our staff. You will receive a confirmation e-mail as soon as they confirm your session.",
      },
      bookingDetailsBlock(booking),
    ],
  });
}

export function bookingConfirmedEmail({
  booking,
  detailsUrl,
}: {
  booking: EmailBooking;
  detailsUrl: string;
}): EmailContent {
  return render({
    subject: `Your session on ${sessionDay(booking)} is confirmed`,
    heading: "Your session is confirmed",
    greeting: `Hi ${booking.firstName},`,
    blocks: [
      {
        kind: "paragraph",
        text: `Good news: our staff confirmed booking #${booking.id}, ${formatSessionTime(booking)}.`,
      },
      {
        kind: "paragraph",
        text: "The attached calendar file adds the session to your calendar. Plan to arrive a few minutes early; our in-house engineer sets up the studio for you.",
      },
      { kind: "button", label: "View your session", href: detailsUrl },
      bookingDetailsBlock(booking),
    ],
  });
}

export function bookingCancelledEmail({
  booking,
  quote,
  by = "customer",
  creditNoteNumber,
}: {
  booking: EmailBooking;
  quote: RefundQuote;
  creditNoteNumber?: string;
  /** The studio cancelling apologises; the refund is then always in full. */
  by?: "customer" | "studio";
}): EmailContent {
  const money: Record<RefundQuote["kind"], string> = {
    unpaid: "Nothing was paid for this booking, so there is nothing to refund.",
    full: `We are refunding the full ${formatDollars(quote.refund)} to your card. Refunds usually reach your account within 5 to 10 business days.`,
    late:
      quote.refund > 0
        ? `As the session was cancelled less than 24 hours before it started, a cancellation fee of ${formatDollars(quote.fee)} is kept. We are refunding the remaining ${formatDollars(quote.refund)} to your card; refunds usually reach your account within 5 to 10 business days.`
        : `As the session was cancelled less than 24 hours before it started, the ${formatDollars(quote.fee)} you paid is kept as the cancellation fee.`,
  };
  return render({
    subject: `Your session on ${sessionDay(booking)} is cancelled`,
    heading: "Your session is cancelled",
    greeting: `Hi ${booking.firstName},`,
    blocks: [
      {
        kind: "paragraph",
        text:
          by === "studio"
            ? `We are sorry: the studio had to cancel booking #${booking.id}. Please get in touch if you would like to book another time.`
            : `Booking #${booking.id} is cancelled and its time slot is released.`,
      },
      { kind: "paragraph", text: money[quote.kind] },
      ...(creditNoteNumber
        ? [
            {
              kind: "paragraph" as const,
              text: `The credit note ${creditNoteNumber} for this refund is attached as a PDF.`,
            },
          ]
        : []),
      { kind: "paragraph", text: "We hope to see you in the studio another time." },
      { kind: "details", heading: "The cancelled session", items: bookingDetails(booking) },
    ],
  });
}

export function bookingRescheduledEmail({
  booking,
  previous,
}: {
  booking: EmailBooking;
  previous: Pick<EmailBooking, "recordingDate" | "recordingTime" | "hoursNeeded">;
}): EmailContent {
  return render({
    subject: `Your session is moved to ${sessionDay(booking)}`,
    heading: "Your session is rescheduled",
    greeting: `Hi ${booking.firstName},`,
    blocks: [
      {
        kind: "paragraph",
        text: `Booking #${booking.id} was moved from ${formatSessionTime(previous)} to ${formatSessionTime(booking)}.`,
      },
      {
        kind: "paragraph",
        text: "Nothing else changes: the price, your add-ons and your payment stay as they were.",
      },
      bookingDetailsBlock(booking),
    ],
  });
}

export function sessionReminderEmail({
  booking,
  detailsUrl,
}: {
  booking: EmailBooking;
  detailsUrl: string;
}): EmailContent {
  return render({
    subject: `Reminder: your studio session on ${sessionDay(booking)}`,
    heading: "See you in the studio soon",
    greeting: `Hi ${booking.firstName},`,
    blocks: [
      {
        kind: "paragraph",
        text: `This is a reminder of your session at ${STUDIO.name}: ${formatSessionTime(booking)}.`,
      },
      {
        kind: "paragraph",
        text: "Our in-house engineer sets up the studio for you; please bring your ideas, not your own equipment. Plan to arrive a few minutes early.",
      },
      { kind: "button", label: "View your session", href: detailsUrl },
      bookingDetailsBlock(booking),
    ],
  });
}

function bookingDetailsBlock(booking: EmailBooking): Block {
  return { kind: "details", heading: "Your session", items: bookingDetails(booking) };
}

function sessionDay(booking: EmailBooking): string {
  return format(
    zoned(studioInstant(booking.recordingDate, booking.recordingTime)),
    "EEEE, MMMM d, yyyy",
  );
}

/** docs/product.md "Support and chat". */
export function supportResolvedEmail({
  request,
  dashboardUrl,
}: {
  request: {
    id: number;
    name: string;
    issueLabel: string;
    description: string;
    resolution: string;
  };
  dashboardUrl: string;
}): EmailContent {
  return render({
    subject: `Your support request #${request.id} is resolved`,
    heading: "Your support request is resolved",
    greeting: `Hi ${request.name},`,
    blocks: [
      {
        kind: "paragraph",
        text: `Our team has resolved your request #${request.id} (${request.issueLabel}).`,
      },
      {
        kind: "details",
        heading: "How we resolved it",
        items: [
          { label: "Resolution", value: request.resolution },
          { label: "Your request", value: request.description },
        ],
      },
      {
        kind: "paragraph",
        text: "If anything is still not right, reply to this e-mail or send a new request from your dashboard.",
      },
      { kind: "button", label: "Open Help & Support", href: dashboardUrl },
    ],
  });
}

export type EmailFile = { name: string; size: number; expiresAt: number | null };

function formatStudioDate(epochMs: number): string {
  return format(zoned(epochMs), "MMM d, yyyy");
}

function fileItems(files: EmailFile[]): Detail[] {
  return files.map((file) => ({ label: file.name, value: formatBytes(file.size) }));
}

function earliestExpiry(files: EmailFile[]): number | null {
  const expiries = files.flatMap((file) => (file.expiresAt === null ? [] : [file.expiresAt]));
  return expiries.length > 0 ? Math.min(...expiries) : null;
}

/** A link to the session's page, never the files as attachments. */
export function filesReadyEmail({
  booking,
  files,
  sessionUrl,
}: {
  booking: EmailBooking;
  files: EmailFile[];
  sessionUrl: string;
}): EmailContent {
  const firstExpiry = earliestExpiry(files);
  return render({
    subject: "Your files are ready",
    heading: "Your files are ready",
    greeting: `Hi ${booking.firstName},`,
    blocks: [
      {
        kind: "paragraph",
        text: `The files of your session on ${sessionDay(booking)} are ready to download from your session's page.`,
      },
      { kind: "button", label: "Download your files", href: sessionUrl },
      { kind: "details", heading: "Your files", items: fileItems(files) },
      {
        kind: "paragraph",
        text:
          firstExpiry === null
            ? "Please download them soon: we keep delivered files for a limited time."
            : `Please download them by ${formatStudioDate(firstExpiry)}: we delete delivered files after that, and we will remind you a week before.`,
      },
    ],
  });
}

export function filesExpiringEmail({
  booking,
  files,
  sessionUrl,
}: {
  booking: EmailBooking;
  files: EmailFile[];
  sessionUrl: string;
}): EmailContent {
  const firstExpiry = earliestExpiry(files) ?? Date.now();
  return render({
    subject: "Your session files will be deleted soon",
    heading: "Your files will be deleted soon",
    greeting: `Hi ${booking.firstName},`,
    blocks: [
      {
        kind: "paragraph",
        text: `The files of your session on ${sessionDay(booking)} will be deleted on ${formatStudioDate(firstExpiry)}. If you have not downloaded them yet, please do so before then.`,
      },
      { kind: "button", label: "Download your files", href: sessionUrl },
      { kind: "details", heading: "Files to be deleted", items: fileItems(files) },
    ],
  });
}

/** docs/product.md "Waitlist". */
export function waitlistOfferEmail({
  firstName,
  range,
  claimUrl,
  expiresAt,
}: {
  firstName: string;
  range: { recordingDate: string; recordingTime: string; hoursNeeded: number };
  claimUrl: string;
  expiresAt: number;
}): EmailContent {
  const when = formatSessionTime({ ...range, hoursNeeded: String(range.hoursNeeded) });
  return render({
    subject: "The studio time you waited for is free: it is held for you",
    heading: "Your waitlist time is free",
    greeting: `Hi ${firstName},`,
    blocks: [
      {
        kind: "paragraph",
        text: `The time you asked us to watch at ${STUDIO.name} has freed up: ${when}.`,
      },
      {
        kind: "paragraph",
        text: `We hold it for you until ${formatStudioDateTime(expiresAt)}. After that it passes to the next person waiting.`,
      },
      { kind: "button", label: "Book this time", href: claimUrl },
    ],
  });
}

/** Each session's receipt is attached by the caller (docs/product.md "Weekly series"). */
export function seriesPaymentReceivedEmail({
  sessions,
  heading,
  amount,
  brand,
  last4,
  receiptNumbers,
}: {
  sessions: EmailBooking[];
  heading: string;
  amount: number;
  brand: string;
  last4: string;
  receiptNumbers: string[];
}): EmailContent {
  const first = sessions[0];
  return render({
    subject: `Payment received for your ${plural(sessions.length, "session", "sessions")}${first ? ` from ${sessionDay(first)}` : ""}`,
    heading: "Thank you, your payment is received",
    greeting: `Hi ${first?.firstName ?? "there"},`,
    blocks: [
      {
        kind: "paragraph",
        text: `We received your payment of ${formatDollars(amount)} (${cardLabel(brand, last4)}) for ${plural(sessions.length, "session", "sessions")} of your series: ${heading}.`,
      },
      ...(receiptNumbers.length > 0
        ? [
            {
              kind: "paragraph" as const,
              text: `A receipt for each session (${receiptNumbers.join(", ")}) is attached as a PDF for your records.`,
            },
          ]
        : []),
      {
        kind: "paragraph",
        text: "Your sessions are now pending review by our staff. You will receive a confirmation e-mail as soon as they confirm them.",
      },
      seriesSessionsBlock("Sessions paid", sessions),
    ],
  });
}

export function seriesCancelledEmail({
  cancelled,
  by = "customer",
}: {
  cancelled: { booking: EmailBooking; quote: RefundQuote }[];
  by?: "customer" | "studio";
}): EmailContent {
  const first = cancelled[0]?.booking;
  const refund = cancelled.reduce((sum, { quote }) => sum + quote.refund, 0);
  const fee = cancelled.reduce(
    (sum, { quote }) => sum + (quote.kind === "late" ? quote.fee : 0),
    0,
  );
  const money =
    refund > 0
      ? `We are refunding ${formatDollars(refund)} in all to your card. Refunds usually reach your account within 5 to 10 business days.`
      : "Nothing is refunded.";
  return render({
    subject: `${plural(cancelled.length, "session", "sessions")} of your series cancelled${first ? ` from ${sessionDay(first)}` : ""}`,
    heading: "Your sessions are cancelled",
    greeting: `Hi ${first?.firstName ?? "there"},`,
    blocks: [
      {
        kind: "paragraph",
        text: `${plural(cancelled.length, "session", "sessions")} of your series ${cancelled.length === 1 ? "is" : "are"} cancelled and ${cancelled.length === 1 ? "its time slot is" : "their time slots are"} released.`,
      },
      ...(by === "studio"
        ? [
            {
              kind: "paragraph" as const,
              text: "We are sorry: the studio had to cancel them. Please get in touch if you would like to book other times.",
            },
          ]
        : []),
      { kind: "paragraph", text: money },
      ...(fee > 0
        ? [
            {
              kind: "paragraph" as const,
              text: `A session cancelled less than 24 hours before it started keeps a cancellation fee: ${formatDollars(fee)} in all.`,
            },
          ]
        : []),
      {
        kind: "details",
        heading: "The cancelled sessions",
        items: cancelled.map(({ booking, quote }) => ({
          label: `#${booking.id}`,
          value: `${formatSessionTime(booking)}; ${
            quote.kind === "unpaid"
              ? "not paid"
              : quote.refund > 0
                ? `refund ${formatDollars(quote.refund)}`
                : "no refund"
          }`,
        })),
      },
    ],
  });
}

function seriesSessionsBlock(heading: string, sessions: EmailBooking[]): Block {
  return {
    kind: "details",
    heading,
    items: sessions.map((session) => ({
      label: `#${session.id}`,
      value: `${formatSessionTime(session)}, ${formatDollars(session.totalCost)}`,
    })),
  };
}

/** Both tell the owner to change the password (docs/product.md "Accounts and sign-ins"). */
export function signInCodeAlertEmail({
  alert,
  firstName,
  freezeAfter,
  profileUrl,
}: {
  alert: "wrong-code" | "frozen";
  firstName: string;
  freezeAfter: number;
  profileUrl: string;
}): EmailContent {
  const change: Block = { kind: "button", label: "Change your password", href: profileUrl };
  if (alert === "wrong-code") {
    return render({
      subject: "A wrong sign-in code was entered for your account",
      heading: "Someone may have your password",
      greeting: `Hi ${firstName},`,
      blocks: [
        {
          kind: "paragraph",
          text: "Someone signed in to your account with your password, then entered a wrong two-factor code.",
        },
        {
          kind: "paragraph",
          text: "If that was not you, someone else knows your password. Change it now.",
        },
        change,
      ],
    });
  }
  return render({
    subject: "Codes from your authenticator app no longer sign you in",
    heading: "Your authenticator app's codes are stopped",
    greeting: `Hi ${firstName},`,
    blocks: [
      {
        kind: "paragraph",
        text: `${freezeAfter} wrong two-factor codes were entered in a row after your password, so codes from your authenticator app no longer sign in to your account.`,
      },
      {
        kind: "paragraph",
        text: "Sign in with one of your recovery codes: that makes the app's codes work again. Then change your password, as someone else knows it. If you have no recovery codes left, contact us.",
      },
      change,
    ],
  });
}
