import { requiredText, z } from "#app/domain/zod";

/** Add-on services (docs/product.md "Data", "Validation", "Constants"). */
export const SERVICE_LIMITS = {
  nameMax: 100,
  descriptionMax: 1000,
  maxPrice: 100_000,
  maxDuration: 1440,
} as const;

export const SERVICE_MESSAGES = {
  title: "Validation Error",
  required: "Name, description, and price are required.",
  price: "Price must be a positive number.",
  duration: "Duration must be a positive number.",
  nameLong: `Name must be at most ${SERVICE_LIMITS.nameMax} characters.`,
  descriptionLong: `Description must be at most ${SERVICE_LIMITS.descriptionMax} characters.`,
  priceHigh: `Price must be at most $${SERVICE_LIMITS.maxPrice.toLocaleString("en-US")}.`,
  durationHigh: `Duration must be at most ${SERVICE_LIMITS.maxDuration.toLocaleString("en-US")} minutes.`,
  notFound: "Service not found",
} as const;

export type ServiceInput = {
  name: string;
  description: string;
  price: number;
  duration: number | null;
};

export const SERVICE_FIELDS = ["name", "description", "price", "duration"] as const;
export type ServiceFields = (typeof SERVICE_FIELDS)[number];
export type ServiceErrors = Partial<Record<ServiceFields, string>>;

/** A JSON client sends numbers where a form posts their digits. */
const asText = (value: unknown) => (typeof value === "number" ? String(value) : value);

const blankAsMissing = (value: unknown) =>
  value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;

/**
 * Plain digits only: reading "12.5" as 12 would store a price the admin did not type, and "1e3",
 * "0x10" or a JSON true are not prices.
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
 * One schema for the dialogs and the API (docs/product.md "Validation"). Edit keeps the
 * positive-price check the original site had only on create: a service saved once can always be
 * saved again, and a price of 0 would make an add-on free by accident.
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

/** Missing fields first, then the form's order (docs/product.md "Validation"). */
export function serviceRefusalMessage(
  errors: Record<string, string[] | null | undefined> | null | undefined,
): string {
  const messages = SERVICE_FIELDS.flatMap((field) => errors?.[field] ?? []);
  return messages.includes(SERVICE_MESSAGES.required)
    ? SERVICE_MESSAGES.required
    : (messages[0] ?? SERVICE_MESSAGES.required);
}

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

/** Read loosely (a form-like client sends the price as text), then checked by parseService. */
export const serviceBody = z.object({
  name: z.unknown().optional(),
  description: z.unknown().optional(),
  price: z.unknown().optional(),
  duration: z.unknown().optional(),
  isActive: z.boolean({ error: "isActive must be true or false" }).optional(),
});
