import { profileFields } from "#app/domain/account";
import { SUPPORT_STATUS_LABELS, type SupportStatus } from "#app/domain/support-status";
import { z } from "#app/domain/zod";

/** docs/product.md "Data", "Support and chat": codes stored, labels for people. */
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

const blankAsMissing = (value: unknown) =>
  value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;

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
    .pipe(
      z
        .number({ error: SUPPORT_MESSAGES.booking })
        .int(SUPPORT_MESSAGES.booking)
        .positive(SUPPORT_MESSAGES.booking)
        .max(Number.MAX_SAFE_INTEGER, SUPPORT_MESSAGES.booking),
    )
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

export function supportReceivedMessage(method: ContactMethod): string {
  return `We have received your request and will contact you by ${method === "PHONE" ? "phone" : "e-mail"}.`;
}

/** docs/product.md "Technical assistance statuses". */
export const SUPPORT_TRANSITIONS: Record<SupportStatus, readonly SupportStatus[]> = {
  PENDING: ["IN_PROGRESS", "CANCELLED"],
  IN_PROGRESS: ["RESOLVED", "CANCELLED"],
  RESOLVED: [],
  CANCELLED: [],
};

export const RESOLUTION_MAX = 2000;

export const SUPPORT_UPDATE_MESSAGES = {
  status: "Please choose PENDING, IN_PROGRESS, RESOLVED or CANCELLED",
  resolutionRequired: "Please describe how the request was resolved",
  resolutionLong: `Please keep the resolution under ${RESOLUTION_MAX} characters`,
} as const;

export type SupportTransitionProblem = "not-allowed" | "resolution-required" | null;

/** Moving to the status it already has is not a move: a second admin clicking it is told so. */
export function supportTransitionProblem(
  from: SupportStatus,
  to: SupportStatus,
  resolution: string | null | undefined,
): SupportTransitionProblem {
  if (!SUPPORT_TRANSITIONS[from].includes(to)) return "not-allowed";
  if (to === "RESOLVED" && (resolution ?? "").trim() === "") return "resolution-required";
  return null;
}

export function supportTransitionMessage(id: number, from: SupportStatus, to: SupportStatus) {
  return SUPPORT_TRANSITIONS[from].length === 0
    ? `Request #${id} is already ${SUPPORT_STATUS_LABELS[from]}: it cannot be changed any more.`
    : `Request #${id} is ${SUPPORT_STATUS_LABELS[from]}: it cannot move to ${SUPPORT_STATUS_LABELS[to]}.`;
}

const supportStatus = z.enum(
  Object.keys(SUPPORT_STATUS_LABELS) as [SupportStatus, ...SupportStatus[]],
  { error: SUPPORT_UPDATE_MESSAGES.status },
);

const resolutionText = z.preprocess(
  blankAsMissing,
  z
    .string({ error: SUPPORT_UPDATE_MESSAGES.resolutionRequired })
    .trim()
    .max(RESOLUTION_MAX, SUPPORT_UPDATE_MESSAGES.resolutionLong)
    .optional(),
);

/** A resolution sent with any other status is ignored, so only RESOLVED rows carry one. */
export const supportUpdateSchema = z
  .object({ status: supportStatus, resolution: resolutionText })
  .superRefine((value, context) => {
    if (value.status === "RESOLVED" && value.resolution === undefined) {
      context.addIssue({
        code: "custom",
        path: ["resolution"],
        message: SUPPORT_UPDATE_MESSAGES.resolutionRequired,
      });
    }
  })
  .transform((value) => ({
    status: value.status,
    resolution: value.status === "RESOLVED" ? (value.resolution ?? null) : null,
  }));

export type SupportUpdate = z.infer<typeof supportUpdateSchema>;

export const SUPPORT_ACTIONS = {
  start: "IN_PROGRESS",
  resolve: "RESOLVED",
  cancel: "CANCELLED",
} as const satisfies Record<string, SupportStatus>;
type SupportAction = keyof typeof SUPPORT_ACTIONS;

export const SUPPORT_ACTION_MESSAGES = {
  intent: "Please use one of the request's buttons.",
  notFound: "This request was not found.",
} as const;

/** The Support tab's forms, read into the same update the API's PUT makes. */
export const supportActionSchema = z
  .object({
    intent: z.enum(Object.keys(SUPPORT_ACTIONS) as [SupportAction, ...SupportAction[]], {
      error: SUPPORT_ACTION_MESSAGES.intent,
    }),
    id: z
      .string({ error: SUPPORT_ACTION_MESSAGES.notFound })
      .regex(/^\d{1,15}$/, SUPPORT_ACTION_MESSAGES.notFound)
      .transform(Number),
    resolution: resolutionText,
  })
  .superRefine((value, context) => {
    if (value.intent === "resolve" && value.resolution === undefined) {
      context.addIssue({
        code: "custom",
        path: ["resolution"],
        message: SUPPORT_UPDATE_MESSAGES.resolutionRequired,
      });
    }
  })
  .transform(({ intent, id, resolution }) => ({
    id,
    update: {
      status: SUPPORT_ACTIONS[intent],
      resolution: intent === "resolve" ? (resolution ?? null) : null,
    } satisfies SupportUpdate,
  }));

export function supportStatusParam(value: string | null): SupportStatus | null {
  return (Object.keys(SUPPORT_STATUS_LABELS) as SupportStatus[]).find((s) => s === value) ?? null;
}
