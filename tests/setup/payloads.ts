/**
 * The request bodies many suites send to make a booking, pay it or register through a form:
 * one valid customer (Ada Lovelace) and the sandbox card that pays. Tests change only the
 * fields they are about, through overrides, so a new required field is added here once.
 */
export const PASSWORD = "correct-horse-battery";

/** The booking form's fields as a browser posts them (every value a string). */
export function bookingFormFields(
  date: string,
  time: string,
  hours = 2,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    firstName: "Ada",
    lastName: "Lovelace",
    businessName: "Analytical Audio",
    phoneNumber: "404-555-0100",
    email: "ada@example.com",
    stakeholder: "no",
    recordingDate: date,
    recordingTime: time,
    guestCount: "1",
    hoursNeeded: String(hours),
    ...overrides,
  };
}

/** The JSON body of POST /api/bookings. */
export function bookingPayload(
  date: string,
  time: string,
  hours = 2,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return { ...bookingFormFields(date, time, hours), isRetainer: false, ...overrides };
}

/** The sandbox card that pays (the provider declines only its own test numbers). */
export const SANDBOX_CARD = {
  cardName: "Ada Lovelace",
  cardNumber: "4242 4242 4242 4242",
  expirationDate: "12/39",
  cvv: "987",
};

/** The JSON body of POST /api/bookings/{id}/payments/direct. */
export function cardBody(
  amount: unknown,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const card = { ...SANDBOX_CARD, ...overrides };
  return { paymentMethod: "card", ...card, amount, paymentDetails: { ...card } };
}

/** The registration form's fields as a browser posts them. */
export function registerFormFields(username: string): Record<string, string> {
  return {
    intent: "register",
    username,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    firstName: "Ada",
    lastName: "Lovelace",
    phoneNumber: "404-555-0100",
    email: "ada@example.com",
  };
}
