/**
 * Add-on services (spec sections 3 and 5): the admin's create and edit rules, shared by the
 * Services tab's dialogs and POST/PUT /api/services. Prices are whole dollars, durations
 * whole minutes (spec section 9).
 */
export const SERVICE_LIMITS = {
  nameMax: 100,
  descriptionMax: 1000,
  maxPrice: 100_000,
  maxDuration: 1440,
} as const;

/** The spec's messages (section 5), plus the bounds the spec leaves open. */
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

/** What the Add Service and Edit dialogs post, and get back with each refused field's message. */
export type ServiceFormValues = {
  name: string;
  description: string;
  price: string;
  duration: string;
};
export type ServiceFormReply = {
  values: ServiceFormValues;
  errors: Partial<Record<keyof ServiceFormValues, string>>;
};

export type ServiceFields = "name" | "description" | "price" | "duration";
export type ServiceErrors = Partial<Record<ServiceFields, string>>;

/** What a form or a JSON client sent for one field: text from a form, anything from JSON. */
type Raw = unknown;

const isBlank = (value: Raw) =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/**
 * A whole number > 0 from a form's text or a JSON number. Only plain digits count as text:
 * "12.5", "1e3", "0x10" or "-4" are not prices (the spec parses an integer; reading "12.5" as
 * 12 would store a price the admin did not type).
 */
function positiveWhole(value: Raw): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value.trim())) return null;
  const number = Number(value.trim());
  return number > 0 ? number : null;
}

function text(value: Raw): string | null {
  return typeof value === "string" ? value.trim() : null;
}

/**
 * Create and edit (spec section 5): name, description and price are required; the price is
 * a whole number above 0; a duration, when given, is a whole number above 0, and a blank one
 * is stored as null. Edit keeps the positive-price check the spec only names for create: a
 * price of 0 or less would make an add-on free or lower a booking's total by accident, and the
 * same rule in both places means a service saved once can always be saved again.
 */
export function parseService(input: {
  name?: Raw;
  description?: Raw;
  price?: Raw;
  duration?: Raw;
}): { service: ServiceInput } | { errors: ServiceErrors; message: string } {
  const errors: ServiceErrors = {};
  const name = text(input.name);
  const description = text(input.description);
  if (!name) errors.name = SERVICE_MESSAGES.required;
  else if (name.length > SERVICE_LIMITS.nameMax) errors.name = SERVICE_MESSAGES.nameLong;
  if (!description) errors.description = SERVICE_MESSAGES.required;
  else if (description.length > SERVICE_LIMITS.descriptionMax) {
    errors.description = SERVICE_MESSAGES.descriptionLong;
  }
  let price: number | null = null;
  if (isBlank(input.price)) errors.price = SERVICE_MESSAGES.required;
  else {
    price = positiveWhole(input.price);
    if (price === null) errors.price = SERVICE_MESSAGES.price;
    else if (price > SERVICE_LIMITS.maxPrice) errors.price = SERVICE_MESSAGES.priceHigh;
  }
  let duration: number | null = null;
  if (!isBlank(input.duration)) {
    duration = positiveWhole(input.duration);
    if (duration === null) errors.duration = SERVICE_MESSAGES.duration;
    else if (duration > SERVICE_LIMITS.maxDuration) errors.duration = SERVICE_MESSAGES.durationHigh;
  }
  const messages = Object.values(errors);
  if (messages.length > 0 || !name || !description || price === null) {
    // The toast names the first problem in the spec's order: missing fields, then the price.
    const message = messages.includes(SERVICE_MESSAGES.required)
      ? SERVICE_MESSAGES.required
      : (messages[0] ?? SERVICE_MESSAGES.required);
    return { errors, message };
  }
  return { service: { name, description, price, duration } };
}
