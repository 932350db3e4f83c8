import { studioDateOf } from "#app/domain/studio-time";
import { z } from "#app/domain/zod";

/**
 * The card form (docs/product.md "Validation", "Payment"). The full number and CVV live only in
 * the request that pays; a payment keeps the brand and last 4 digits.
 */
export const CARD_MESSAGES = {
  name: "Cardholder name is required",
  number: "Card number must be 16 digits",
  expiry: "Please enter a valid expiration date (MM/YY)",
  cvv: "CVV must be 3 digits",
  invalidNumber: "This card number is invalid. Please check it and try again.",
  declined: "Your card was declined. Please use a different card.",
  method: "Please choose how to pay",
} as const;

export const SANDBOX_CARDS = {
  success: "4242424242424242",
  declined: "4000000000000002",
} as const;

export function digitsOnly(value: string): string {
  return value.replace(/\D/g, "");
}

export function formatExpiry(value: string): string {
  const digits = digitsOnly(value).slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

export function isValidExpiry(value: string, today: { year: number; month: number }): boolean {
  const match = /^(\d{2})\/(\d{2})$/.exec(value);
  if (!match) return false;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  if (month < 1 || month > 12) return false;
  return year > today.year || (year === today.year && month >= today.month);
}

export function passesLuhn(number: string): boolean {
  // Number(" ") is 0: without this a blank would count as a zero digit.
  if (!/^\d+$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrand(number: string): string {
  if (/^4/.test(number)) return "visa";
  if (/^(5[1-5]|2(22[1-9]|2[3-9]|[3-6]\d|7[01]|720))/.test(number)) return "mastercard";
  if (/^(6011|65|64[4-9])/.test(number)) return "discover";
  if (/^35/.test(number)) return "jcb";
  return "card";
}

/** A card is valid through the end of its month. */
export function studioMonth(now: number): { year: number; month: number } {
  const [year, month] = studioDateOf(now).split("-").map(Number);
  return { year: year ?? 0, month: month ?? 0 };
}

export function cardFormSchema(today: { year: number; month: number }) {
  return z.object({
    paymentMethod: z.enum(["card", "paypal"], { error: CARD_MESSAGES.method }).default("card"),
    cardName: z
      .string({ error: CARD_MESSAGES.name })
      .trim()
      .min(1, CARD_MESSAGES.name)
      .max(100, CARD_MESSAGES.name),
    cardNumber: z
      .string({ error: CARD_MESSAGES.number })
      .transform(digitsOnly)
      .pipe(z.string({ error: CARD_MESSAGES.number }).length(16, CARD_MESSAGES.number)),
    expirationDate: z
      .string({ error: CARD_MESSAGES.expiry })
      .trim()
      .refine((value) => isValidExpiry(value, today), CARD_MESSAGES.expiry),
    cvv: z
      .string({ error: CARD_MESSAGES.cvv })
      .trim()
      .regex(/^\d{3}$/, CARD_MESSAGES.cvv),
  });
}
export type CardInput = z.output<ReturnType<typeof cardFormSchema>>;
