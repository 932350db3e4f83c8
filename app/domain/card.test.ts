import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  CARD_MESSAGES,
  cardBrand,
  cardFormSchema,
  digitsOnly,
  formatExpiry,
  isValidExpiry,
  passesLuhn,
  SANDBOX_CARDS,
  studioMonth,
} from "#app/domain/card";

/** June 2026, studio time. */
const TODAY = { year: 2026, month: 6 };

const valid = {
  paymentMethod: "card",
  cardName: "Ada Lovelace",
  cardNumber: "4242424242424242",
  expirationDate: "12/27",
  cvv: "123",
};

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

const fieldErrors = (submission: { status?: string; error?: unknown }) =>
  submission.status === "error" ? submission.error : undefined;

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe("messages (docs/product.md 'Validation')", () => {
  it("are the texts of docs/product.md 'Validation'", () => {
    expect(CARD_MESSAGES.name).toBe("Cardholder name is required");
    expect(CARD_MESSAGES.number).toBe("Card number must be 16 digits");
    expect(CARD_MESSAGES.expiry).toBe("Please enter a valid expiration date (MM/YY)");
    expect(CARD_MESSAGES.cvv).toBe("CVV must be 3 digits");
  });
});

describe("digitsOnly", () => {
  it("keeps only digits", () => {
    expect(digitsOnly("4242 4242-4242.4242")).toBe("4242424242424242");
    expect(digitsOnly("12/27")).toBe("1227");
    expect(digitsOnly("abc")).toBe("");
  });
});

describe("formatExpiry", () => {
  it.each([
    ["", ""],
    ["1", "1"],
    ["12", "12"],
    ["122", "12/2"],
    ["1227", "12/27"],
    ["12/27", "12/27"],
    ["12/2", "12/2"],
    ["12 / 27", "12/27"],
    ["122734", "12/27"],
    ["ab12cd27", "12/27"],
  ])("formats %o as %o", (typed, shown) => {
    expect(formatExpiry(typed)).toBe(shown);
  });

  it("never exceeds 5 characters", () => {
    for (const typed of ["1", "12", "123", "1234", "12345", "123456789", "12/345"]) {
      expect(formatExpiry(typed).length).toBeLessThanOrEqual(5);
    }
  });

  it("is stable when the formatted value is typed again", () => {
    expect(formatExpiry(formatExpiry("0628"))).toBe("06/28");
  });
});

describe("isValidExpiry", () => {
  it("accepts months 01 to 12", () => {
    expect(isValidExpiry("01/27", TODAY)).toBe(true);
    expect(isValidExpiry("12/27", TODAY)).toBe(true);
  });

  it("refuses month 00 and 13", () => {
    expect(isValidExpiry("00/27", TODAY)).toBe(false);
    expect(isValidExpiry("13/27", TODAY)).toBe(false);
    expect(isValidExpiry("99/27", TODAY)).toBe(false);
  });

  it("accepts the current month and refuses one already over", () => {
    expect(isValidExpiry("06/26", TODAY)).toBe(true);
    expect(isValidExpiry("07/26", TODAY)).toBe(true);
    expect(isValidExpiry("05/26", TODAY)).toBe(false);
    expect(isValidExpiry("01/26", TODAY)).toBe(false);
  });

  it("refuses a past year, whatever the month", () => {
    expect(isValidExpiry("12/25", TODAY)).toBe(false);
    expect(isValidExpiry("12/00", TODAY)).toBe(false);
    expect(isValidExpiry("01/27", { year: 2026, month: 12 })).toBe(true);
    expect(isValidExpiry("12/26", { year: 2026, month: 12 })).toBe(true);
    expect(isValidExpiry("11/26", { year: 2026, month: 12 })).toBe(false);
    expect(isValidExpiry("12/26", { year: 2027, month: 1 })).toBe(false);
  });

  it.each(["", "1227", "1/27", "12/2", "12/2027", "12-27", "ab/cd", " 12/27", "12/27 "])(
    "refuses the badly shaped %o",
    (value) => {
      expect(isValidExpiry(value, TODAY)).toBe(false);
    },
  );
});

describe("passesLuhn", () => {
  it("passes the sandbox's test cards", () => {
    expect(SANDBOX_CARDS).toEqual({ success: "4242424242424242", declined: "4000000000000002" });
    expect(passesLuhn("4242424242424242")).toBe(true);
    expect(passesLuhn("4000000000000002")).toBe(true);
  });

  it.each(["5555555555554444", "2223003122003222", "6011111111111117", "3530111333300000"])(
    "passes the well-known test number %s",
    (number) => {
      expect(passesLuhn(number)).toBe(true);
    },
  );

  it("fails a number with one digit changed", () => {
    expect(passesLuhn("4242424242424241")).toBe(false);
    expect(passesLuhn("4242424242424243")).toBe(false);
    expect(passesLuhn("4000000000000001")).toBe(false);
    expect(passesLuhn("5242424242424242")).toBe(false);
  });

  it("fails two swapped adjacent digits", () => {
    expect(passesLuhn("2424424242424242")).toBe(false);
  });

  it("fails an empty number and non-digits", () => {
    expect(passesLuhn("")).toBe(false);
    expect(passesLuhn("4242 4242 4242 4242")).toBe(false);
    // A blank must not count as a zero digit: 0 in front would not change the sum.
    expect(passesLuhn("04242424242424242")).toBe(true);
    expect(passesLuhn(" 4242424242424242")).toBe(false);
    expect(passesLuhn("424242424242424x")).toBe(false);
  });
});

describe("cardBrand", () => {
  it.each([
    ["4242424242424242", "visa"],
    ["4000000000000002", "visa"],
    ["5105105105105100", "mastercard"],
    ["5555555555554444", "mastercard"],
    ["2221000000000009", "mastercard"],
    ["2223003122003222", "mastercard"],
    ["2500000000000001", "mastercard"],
    ["2710000000000000", "mastercard"],
    ["2720990000000000", "mastercard"],
    ["6011111111111117", "discover"],
    ["6500000000000002", "discover"],
    ["6445644564456445", "discover"],
    ["3530111333300000", "jcb"],
    ["378282246310005", "card"],
    ["5000000000000000", "card"],
    ["5600000000000000", "card"],
    ["2220990000000000", "card"],
    ["2721000000000000", "card"],
    ["6430000000000000", "card"],
    ["", "card"],
  ])("names %o %o", (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
  });
});

describe("cardFormSchema", () => {
  const schema = cardFormSchema(TODAY);

  it("accepts a complete card and defaults the method to card", () => {
    const { paymentMethod: _, ...withoutMethod } = valid;
    const result = schema.safeParse(withoutMethod);
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ ...valid, paymentMethod: "card" });
  });

  it("strips spaces (and dashes) from the card number", () => {
    expect(schema.safeParse({ ...valid, cardNumber: "4242 4242 4242 4242" }).data?.cardNumber).toBe(
      "4242424242424242",
    );
    expect(
      schema.safeParse({ ...valid, cardNumber: " 4000-0000-0000-0002 " }).data?.cardNumber,
    ).toBe("4000000000000002");
  });

  it("trims the cardholder name", () => {
    expect(schema.safeParse({ ...valid, cardName: "  Ada Lovelace " }).data?.cardName).toBe(
      "Ada Lovelace",
    );
  });

  it.each([
    ["cardName", "", CARD_MESSAGES.name],
    ["cardName", "   ", CARD_MESSAGES.name],
    ["cardNumber", "", CARD_MESSAGES.number],
    ["cardNumber", "424242424242424", CARD_MESSAGES.number],
    ["cardNumber", "42424242424242424", CARD_MESSAGES.number],
    ["cardNumber", "4242 4242 4242 424", CARD_MESSAGES.number],
    ["expirationDate", "", CARD_MESSAGES.expiry],
    ["expirationDate", "13/27", CARD_MESSAGES.expiry],
    ["expirationDate", "05/26", CARD_MESSAGES.expiry],
    ["expirationDate", "1227", CARD_MESSAGES.expiry],
    ["cvv", "", CARD_MESSAGES.cvv],
    ["cvv", "12", CARD_MESSAGES.cvv],
    ["cvv", "1234", CARD_MESSAGES.cvv],
    ["cvv", "12a", CARD_MESSAGES.cvv],
  ])("refuses %s %o with %o", (field, value, message) => {
    expect(messages(schema.safeParse({ ...valid, [field]: value }))).toEqual([message]);
  });

  it("accepts this month's expiry and a CVV with surrounding blanks", () => {
    const result = schema.safeParse({ ...valid, expirationDate: " 06/26 ", cvv: " 123 " });
    expect(result.data).toMatchObject({ expirationDate: "06/26", cvv: "123" });
  });

  it("accepts paypal as a method and refuses anything else", () => {
    expect(schema.safeParse({ ...valid, paymentMethod: "paypal" }).success).toBe(true);
    expect(schema.safeParse({ ...valid, paymentMethod: "bitcoin" }).success).toBe(false);
  });

  it("does not judge the Luhn check: the payment provider does", () => {
    expect(schema.safeParse({ ...valid, cardNumber: "4242424242424241" }).success).toBe(true);
  });

  it("gives every field its message in docs/product.md 'Validation' when the form is posted empty", () => {
    const submission = parseWithZod(
      form({ cardName: "", cardNumber: "", expirationDate: "", cvv: "" }),
      { schema },
    );
    expect(submission.status).toBe("error");
    expect(fieldErrors(submission)).toEqual({
      cardName: [CARD_MESSAGES.name],
      cardNumber: [CARD_MESSAGES.number],
      expirationDate: [CARD_MESSAGES.expiry],
      cvv: [CARD_MESSAGES.cvv],
    });
  });

  it("gives the same messages when the fields are missing from the post", () => {
    const submission = parseWithZod(form({}), { schema });
    expect(fieldErrors(submission)).toEqual({
      cardName: [CARD_MESSAGES.name],
      cardNumber: [CARD_MESSAGES.number],
      expirationDate: [CARD_MESSAGES.expiry],
      cvv: [CARD_MESSAGES.cvv],
    });
  });

  it("parses a posted form with a spaced card number", () => {
    const submission = parseWithZod(form({ ...valid, cardNumber: "4242 4242 4242 4242" }), {
      schema,
    });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toEqual(valid);
  });

  it("judges the expiry against the month it is given", () => {
    const later = cardFormSchema({ year: 2028, month: 1 });
    expect(messages(later.safeParse(valid))).toEqual([CARD_MESSAGES.expiry]);
  });
});

describe("studioMonth", () => {
  it("is the month in Atlanta, not in UTC", () => {
    // 22:00 on Jan 31 in Atlanta is already February in UTC.
    expect(studioMonth(Date.parse("2027-02-01T03:00:00Z"))).toEqual({ year: 2027, month: 1 });
    expect(studioMonth(Date.parse("2027-02-01T05:00:00Z"))).toEqual({ year: 2027, month: 2 });
  });
});
