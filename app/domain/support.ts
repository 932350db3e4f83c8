import type { SUPPORT_STATUSES } from "../../db/schema";
import { profileFields } from "./account";
import { z } from "./zod";

/**
 * A customer's technical-support request (spec section 3 "technical_assistance_requests",
 * product-decisions "Support and chat"): one schema for the dashboard's 'Get help' form, the
 * browser's checks and POST /api/tech-assistance. Codes are stored; labels are for people.
 */
export const ISSUE_TYPES = {
  BOOKING: "Booking or scheduling",
  PAYMENT: "Payment or refund",
  EQUIPMENT: "Studio equipment",
  RECORDING: "Recording files or post-production",
  ACCOUNT: "My account",
  OTHER: "Something else",
} as const;
export type IssueType = keyof typeof ISSUE_TYPES;

export const CONTACT_METHODS = { EMAIL: "E-mail", PHONE: "Phone" } as const;
export type ContactMethod = keyof typeof CONTACT_METHODS;

export type SupportStatus = (typeof SUPPORT_STATUSES)[number];

export const SUPPORT_STATUS_LABELS: Record<SupportStatus, string> = {
  PENDING: "Pending",
  IN_PROGRESS: "In Progress",
  RESOLVED: "Resolved",
  CANCELLED: "Cancelled",
};

export const DESCRIPTION_LIMITS = { min: 20, max: 2000 } as const;

export const SUPPORT_MESSAGES = {
  issueType: "Please choose what your request is about",
  descriptionShort: `Please describe the issue in at least ${DESCRIPTION_LIMITS.min} characters`,
  descriptionLong: `Please keep the description under ${DESCRIPTION_LIMITS.max} characters`,
  contactMethod: "Please choose how we should contact you",
  name: "Please enter your name",
  phoneForCall: "Please enter a phone number so we can call you",
  booking: "Please choose one of your own bookings",
} as const;

/** Empty inputs (a blank field, a JSON null) mean "not given". */
const blankAsMissing = (value: unknown) =>
  value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;

/** A select's value arrives as text, a JSON client may send a number. */
const bookingId = z.preprocess(
  (value) => {
    const given = blankAsMissing(value);
    return typeof given === "number" ? String(given) : given;
  },
  z
    .string({ error: SUPPORT_MESSAGES.booking })
    .trim()
    .regex(/^\d{1,15}$/, SUPPORT_MESSAGES.booking)
    .transform(Number)
    .pipe(z.number().int().positive(SUPPORT_MESSAGES.booking).max(Number.MAX_SAFE_INTEGER))
    .optional(),
);

export const supportRequestSchema = z
  .object({
    issueType: z.enum(Object.keys(ISSUE_TYPES) as [IssueType, ...IssueType[]], {
      error: SUPPORT_MESSAGES.issueType,
    }),
    description: z
      .string({ error: SUPPORT_MESSAGES.descriptionShort })
      .trim()
      .min(DESCRIPTION_LIMITS.min, SUPPORT_MESSAGES.descriptionShort)
      .max(DESCRIPTION_LIMITS.max, SUPPORT_MESSAGES.descriptionLong),
    preferredContactMethod: z.enum(
      Object.keys(CONTACT_METHODS) as [ContactMethod, ...ContactMethod[]],
      {
        error: SUPPORT_MESSAGES.contactMethod,
      },
    ),
    name: z
      .string({ error: SUPPORT_MESSAGES.name })
      .trim()
      .min(1, SUPPORT_MESSAGES.name)
      .max(200, "Name must be at most 200 characters"),
    email: profileFields.email,
    phoneNumber: z.preprocess(blankAsMissing, profileFields.phoneNumber.optional()),
    bookingId,
  })
  .superRefine((value, context) => {
    if (value.preferredContactMethod === "PHONE" && value.phoneNumber === undefined) {
      context.addIssue({
        code: "custom",
        path: ["phoneNumber"],
        message: SUPPORT_MESSAGES.phoneForCall,
      });
    }
  });

export type SupportRequestInput = z.infer<typeof supportRequestSchema>;

/** The success toast's promise names the channel the customer chose. */
export function supportReceivedMessage(method: ContactMethod): string {
  return `We have received your request and will contact you by ${method === "PHONE" ? "phone" : "e-mail"}.`;
}
