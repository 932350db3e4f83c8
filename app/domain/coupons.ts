import { format, parseISO } from "date-fns";
import { COUPON_TYPES, type CouponType } from "#app/domain/coupon-type";
import type { CouponTerms } from "#app/domain/pricing";
import { z } from "#app/domain/zod";

/**
 * Whether a coupon may be redeemed (docs/product.md "Coupons"). Every unusable code gets one
 * message, so a code's state cannot be probed; staff see the reason in the Coupons tab.
 */
export type CouponRecord = CouponTerms & {
  code: string;
  isActive: boolean;
  maxUses: number;
  currentUses: number;
  /** Studio-local yyyy-MM-dd, valid through the end of that day. */
  expiryDate: string;
};

export const COUPON_MESSAGES = {
  required: "Please enter a coupon code",
  unusable: "This coupon is invalid or has expired.",
  valid: "Coupon is valid",
} as const;

export type CouponReason = "notFound" | "inactive" | "expired" | "usedUp";

export function couponRefusalMessage(_reason: CouponReason): string {
  return COUPON_MESSAGES.unusable;
}

export function normalizeCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

/** Null when the coupon can be used on `today` (studio yyyy-MM-dd), else why not (internal). */
export function couponProblem(
  coupon: CouponRecord | undefined,
  today: string,
): CouponReason | null {
  if (!coupon) return "notFound";
  if (!coupon.isActive) return "inactive";
  // yyyy-MM-dd strings sort like the dates they name.
  if (coupon.expiryDate < today) return "expired";
  if (coupon.maxUses > 0 && coupon.currentUses >= coupon.maxUses) return "usedUp";
  return null;
}

/** Expiry of a coupon created without one (docs/product.md "Validation": 31 Dec 2099). */
export const NO_EXPIRY = "2099-12-31";

/** Our own bounds: a fixed discount above any price means nothing; cents stay far below 2^53. */
export const COUPON_LIMITS = {
  codeMax: 50,
  maxPercent: 100,
  maxFixedCents: 10_000_000,
  maxUses: 1_000_000,
} as const;

/** The toast of each refusal (docs/product.md "Validation"). */
export const COUPON_FORM_ERRORS = {
  codeRequired: { title: "Code required", description: "Please enter a coupon code" },
  codeFormat: {
    title: "Invalid code",
    description: `Use up to ${COUPON_LIMITS.codeMax} letters, digits, - or _`,
  },
  amount: { title: "Invalid amount", description: "Discount amount must be a positive number" },
  amountDecimals: {
    title: "Invalid amount",
    description: "Discount amount can have at most two decimals",
  },
  percentTooSmall: {
    title: "Invalid amount",
    description: "A percentage discount must be at least 1% once rounded",
  },
  percentTooLarge: {
    title: "Invalid amount",
    description: "A percentage discount cannot be more than 100%",
  },
  fixedTooLarge: {
    title: "Invalid amount",
    description: "A fixed discount cannot be more than $100,000.00",
  },
  uses: { title: "Invalid uses", description: "Maximum uses must be a non-negative number" },
  usesTooLarge: {
    title: "Invalid uses",
    description: `Maximum uses cannot be more than ${COUPON_LIMITS.maxUses.toLocaleString("en-US")}`,
  },
  type: { title: "Invalid type", description: "Please choose Percentage or Fixed amount" },
  expiry: { title: "Invalid expiry date", description: "Please enter a valid date" },
} as const;
export type CouponFormError = keyof typeof COUPON_FORM_ERRORS;

/** A code as typed is stored upper case; only characters that are safe in a URL path. */
export function couponCodeProblem(code: string): CouponFormError | null {
  const normalized = normalizeCouponCode(code);
  if (normalized === "") return "codeRequired";
  if (normalized.length > COUPON_LIMITS.codeMax || !/^[A-Z0-9_-]+$/.test(normalized)) {
    return "codeFormat";
  }
  return null;
}

/**
 * The amount as typed, in exact decimal arithmetic (docs/product.md "Validation"): "1e3", "0x10"
 * or "-5" are refused, not read as Number() would read them.
 */
export function couponValueFromAmount(
  type: CouponType,
  amount: string,
): { value: number } | { error: CouponFormError } {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(amount.trim());
  if (!match || amount.trim() === "" || amount.trim() === ".") return { error: "amount" };
  const whole = (match[1] ?? "").replace(/^0+(?=\d)/, "");
  const decimals = match[2] ?? "";
  if (decimals.length > 2) return { error: "amountDecimals" };
  // Longer than any allowed amount: refused before it can lose precision as a number.
  if (whole.length > 9)
    return { error: type === "PERCENTAGE" ? "percentTooLarge" : "fixedTooLarge" };
  const cents = Number(whole || "0") * 100 + Number(decimals.padEnd(2, "0"));
  if (cents <= 0) return { error: "amount" };
  if (type === "FIXED_AMOUNT") {
    return cents > COUPON_LIMITS.maxFixedCents ? { error: "fixedTooLarge" } : { value: cents };
  }
  const percent = Math.floor((cents + 50) / 100);
  if (percent < 1) return { error: "percentTooSmall" };
  if (percent > COUPON_LIMITS.maxPercent) return { error: "percentTooLarge" };
  return { value: percent };
}

export function couponValueProblem(type: CouponType, value: number): CouponFormError | null {
  if (!Number.isInteger(value) || value <= 0) return "amount";
  if (type === "PERCENTAGE" && value > COUPON_LIMITS.maxPercent) return "percentTooLarge";
  if (type === "FIXED_AMOUNT" && value > COUPON_LIMITS.maxFixedCents) return "fixedTooLarge";
  return null;
}

/** 0 = unlimited. */
export function maxUsesFrom(text: string): { value: number } | { error: CouponFormError } {
  const trimmed = text.trim();
  if (!/^\d{1,9}$/.test(trimmed)) return { error: "uses" };
  const value = Number(trimmed);
  return value > COUPON_LIMITS.maxUses ? { error: "usesTooLarge" } : { value };
}

function dollarsOf(cents: number): string {
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  const grouped = whole.toLocaleString("en-US");
  return rest === 0 ? grouped : `${grouped}.${String(rest).padStart(2, "0")}`;
}

/** docs/product.md "Validation". */
export function couponDescription(type: CouponType, value: number): string {
  return type === "PERCENTAGE" ? `${value}% off coupon` : `$${dollarsOf(value)} off coupon`;
}

export function formatCouponDiscount(type: CouponType, value: number): string {
  if (type === "PERCENTAGE") return `${value}%`;
  const whole = Math.floor(value / 100).toLocaleString("en-US");
  return `$${whole}.${String(value % 100).padStart(2, "0")}`;
}

export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [year, month, day] = text.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 2000 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

/**
 * Blank means none. The JSON client sends an ISO instant made from the same date input at UTC
 * midnight, so its first ten characters are the day the admin chose.
 */
export function expiryDateFrom(
  text: string | null | undefined,
): { value: string } | { error: CouponFormError } {
  const trimmed = text?.trim() ?? "";
  if (trimmed === "") return { value: NO_EXPIRY };
  const day =
    /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/.test(
      trimmed,
    )
      ? trimmed.slice(0, 10)
      : "";
  return isCalendarDate(day) ? { value: day } : { error: "expiry" };
}

export type NewCoupon = {
  code: string;
  type: CouponType;
  value: number;
  maxUses: number;
  expiryDate: string;
  isActive: boolean;
  description: string;
};

/** The create form's fields, in the order the form shows them (and the toast picks from). */
export const COUPON_FORM_FIELDS = ["code", "type", "amount", "maxUses", "expiryDate"] as const;

export type CouponInput = Record<(typeof COUPON_FORM_FIELDS)[number], string>;

const message = (key: CouponFormError) => COUPON_FORM_ERRORS[key].description;

function checked<T>(
  result: { value: T } | { error: CouponFormError },
  context: z.RefinementCtx,
): T {
  if ("error" in result) {
    context.addIssue({ code: "custom", message: message(result.error) });
    return z.NEVER;
  }
  return result.value;
}

/**
 * One schema for the server's parse and the browser's checks (docs/product.md "Validation"). The
 * amount depends on the type, so it is checked on the whole form, even when another field is
 * refused (`when`): one post names every refused field.
 */
export const couponFormSchema = z
  .object({
    code: z.string({ error: message("codeRequired") }).transform((code, context) => {
      const problem = couponCodeProblem(code);
      return checked(problem ? { error: problem } : { value: normalizeCouponCode(code) }, context);
    }),
    type: z.enum(COUPON_TYPES, { error: message("type") }),
    amount: z.string({ error: message("amount") }),
    maxUses: z
      .string({ error: message("uses") })
      .transform((text, context) => checked(maxUsesFrom(text), context)),
    expiryDate: z
      .string({ error: message("expiry") })
      .optional()
      .transform((text, context) => checked(expiryDateFrom(text), context)),
  })
  .superRefine(
    (coupon, context) => {
      // With another field refused, the other values are as posted: check their types here.
      const type: unknown = coupon.type;
      const amount: unknown = coupon.amount;
      const known = COUPON_TYPES.find((candidate) => candidate === type);
      if (!known || typeof amount !== "string") return;
      const value = couponValueFromAmount(known, amount);
      if ("error" in value) {
        context.addIssue({ code: "custom", path: ["amount"], message: message(value.error) });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .transform((coupon, context): NewCoupon => {
    const value = couponValueFromAmount(coupon.type, coupon.amount);
    // Refused above already; read again only to have the number.
    if ("error" in value) {
      context.addIssue({ code: "custom", path: ["amount"], message: message(value.error) });
      return z.NEVER;
    }
    return {
      code: coupon.code,
      type: coupon.type,
      value: value.value,
      maxUses: coupon.maxUses,
      expiryDate: coupon.expiryDate,
      isActive: true,
      description: couponDescription(coupon.type, value.value),
    };
  });

/** The toast of a refused create: the first refused field in the form's order. */
export function couponRefusal(
  errors: Record<string, string[] | null | undefined> | null | undefined,
): { title: string; description: string } {
  const first = COUPON_FORM_FIELDS.map((field) => errors?.[field]?.[0]).find(Boolean);
  return (
    Object.values(COUPON_FORM_ERRORS).find((error) => error.description === first) ??
    COUPON_FORM_ERRORS.amount
  );
}

export type CouponFieldErrors = Partial<Record<keyof CouponInput, CouponFormError>>;

export function parseCouponForm(
  input: CouponInput,
): { coupon: NewCoupon } | { errors: CouponFieldErrors } {
  const result = couponFormSchema.safeParse(input);
  if (result.success) return { coupon: result.data };
  const errors: CouponFieldErrors = {};
  for (const issue of result.error.issues) {
    const field = COUPON_FORM_FIELDS.find((name) => name === issue.path[0]);
    const key = (Object.keys(COUPON_FORM_ERRORS) as CouponFormError[]).find(
      (candidate) => COUPON_FORM_ERRORS[candidate].description === issue.message,
    );
    if (field && key && !errors[field]) errors[field] = key;
  }
  return { errors };
}

/** The duplicate-code sentence of docs/product.md "Messages" (409 'Duplicate Coupon Code'). */
export function duplicateCouponMessage(code: string): string {
  return `A coupon with code "${code}" already exists. Please use a different code.`;
}

/** 'MMMM d, yyyy' (docs/product.md "Constants"), zone-free. */
export function formatExpiry(date: string): string {
  return format(parseISO(date), "MMMM d, yyyy");
}
