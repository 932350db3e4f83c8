import { requiredText, z } from "#app/domain/zod";

/**
 * Add-on services (docs/product.md "Data" and "Validation"): the admin's create and edit rules,
 * shared by the Services tab's dialogs and POST/PUT /api/services. Prices are whole dollars,
 * durations whole minutes (docs/product.md "Constants").
 */
export const SERVICE_LIMITS = {
  nameMax: 100,
  descriptionMax: 1000,
  maxPrice: 100_000,
  maxDuration: 1440,
} as const;

/** The messages of docs/product.md "Validation", plus bounds of our own. */
export const SERVICE_MESSAGES = {
  title: "Validation Error",
  required: "Name, description, and price are required.",
  price: "Price must be a positive number.",
  duration: "Duration must be a positive number.",
  nameLong: `Name must be at most ${SERVICE_LIMITS.nameMax} characters.`,
  descriptionLong: `Description must be at most ${SERVICE_LIMITS.descriptionMax} characters.`,
  priceHigh: `Price must be at most $${SERVICE_LIMITS.maxPrice.toLocaleString("en-US")}.`,
  durationHigh: `Duration must be at most ${SERVICE_LIMITS.maxDuration.toLocaleString("en-US")} minutes.`,
} as const;

export type ServiceInput = {
  name: string;
  description: string;
  price: number;
  /** Whole minutes, or null when not given. */
  duration: number | null;
};

export const SERVICE_FIELDS = ["name", "description", "price", "duration"] as const;
export type ServiceFields = (typeof SERVICE_FIELDS)[number];
export type ServiceErrors = Partial<Record<ServiceFields, string>>;

/** A JSON client sends numbers where a form posts their digits. */
const asText = (value: unknown) => (typeof value === "number" ? String(value) : value);

/** A blank input or a JSON null: not given. */
const blankAsMissing = (value: unknown) =>
  value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;

/**
 * A whole number > 0, at most `max`. Only plain digits count: "12.5", "1e3", "0x10" or "-4"
 * are not prices (the original site parsed an integer; reading "12.5" as 12 would store a price the
 * admin did not type), and neither is a JSON true or list.
 */
function wholeNumber(max: number, messages: { missing: string; wrong: string; high: string }) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? messages.missing : messages.wrong) })
    .trim()
    .regex(/^\d{1,15}$/, messages.wrong)
    .transform(Number)
    .refine((number) => number > 0, messages.wrong)
    .refine((number) => number <= max, messages.high);
}

/**
 * Create and edit (docs/product.md "Validation"), one schema for the Services tab's dialogs (the
 * server's parse and the browser's checks) and POST/PUT /api/services (through parseService): name,
 * description and price are required; the price is a whole number above 0; a duration, when given,
 * is a whole number above 0, and a blank one is stored as null. Edit keeps the positive-price check
 * the original site checked only on create (docs/product.md "Validation"): a price of 0 or less
 * would make an add-on free or lower a booking's total by accident, and the same rule in both
 * places means a service saved once can always be saved again.
 */
export const serviceSchema = z.object({
  name: requiredText(SERVICE_MESSAGES.required).max(
    SERVICE_LIMITS.nameMax,
    SERVICE_MESSAGES.nameLong,
  ),
  description: requiredText(SERVICE_MESSAGES.required).max(
    SERVICE_LIMITS.descriptionMax,
    SERVICE_MESSAGES.descriptionLong,
  ),
  price: z.preprocess(
    (value) => blankAsMissing(asText(value)),
    wholeNumber(SERVICE_LIMITS.maxPrice, {
      missing: SERVICE_MESSAGES.required,
      wrong: SERVICE_MESSAGES.price,
      high: SERVICE_MESSAGES.priceHigh,
    }),
  ),
  duration: z
    .preprocess(
      (value) => blankAsMissing(asText(value)),
      wholeNumber(SERVICE_LIMITS.maxDuration, {
        missing: SERVICE_MESSAGES.duration,
        wrong: SERVICE_MESSAGES.duration,
        high: SERVICE_MESSAGES.durationHigh,
      }).optional(),
    )
    .transform((duration) => duration ?? null),
});

/**
 * The 'Validation Error' toast's sentence: the first problem in the order of
 * docs/product.md "Validation", missing fields first, then the fields in the form's order.
 */
export function serviceRefusalMessage(
  errors: Record<string, string[] | null | undefined> | null | undefined,
): string {
  const messages = SERVICE_FIELDS.flatMap((field) => errors?.[field] ?? []);
  return messages.includes(SERVICE_MESSAGES.required)
    ? SERVICE_MESSAGES.required
    : (messages[0] ?? SERVICE_MESSAGES.required);
}

/** What POST and PUT /api/services send, checked by the same schema as the dialogs. */
export function parseService(input: {
  name?: unknown;
  description?: unknown;
  price?: unknown;
  duration?: unknown;
}): { service: ServiceInput } | { errors: ServiceErrors; message: string } {
  const result = serviceSchema.safeParse(input);
  if (result.success) return { service: result.data };
  const all: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]);
    all[field] = [...(all[field] ?? []), issue.message];
  }
  const errors: ServiceErrors = {};
  for (const field of SERVICE_FIELDS) {
    const first = all[field]?.[0];
    if (first) errors[field] = first;
  }
  return { errors, message: serviceRefusalMessage(all) };
}

/**
 * The body of POST and PUT /api/services. Fields are read loosely here (a form-like client may
 * send the price as text) and checked by the domain's parseService, so the messages are those
 * of docs/product.md "Validation"; only isActive must be a real boolean.
 */
export const serviceBody = z.object({
  name: z.unknown().optional(),
  description: z.unknown().optional(),
  price: z.unknown().optional(),
  duration: z.unknown().optional(),
  isActive: z.boolean({ error: "isActive must be true or false" }).optional(),
});
