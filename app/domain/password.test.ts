import { describe, expect, it } from "vitest";
import "#tests/setup/password-estimator";
import { passwordChangeSchema, registerSchema } from "#app/domain/account";
import { newPasswordSchema, PASSWORD_MAX, weakPasswordMessage } from "#app/domain/password";

const messages = (result: { error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe("newPasswordSchema", () => {
  it.each([
    ["password123", "it is a commonly used password"],
    ["12345678", "it is one of the most common passwords"],
    ["qwertyuiop", "it is one of the most common passwords"],
    ["abcdefgh", "it is a simple sequence like abc or 123"],
    ["aaaaaaaaaaaa", "it repeats the same characters"],
    ["Password1!", "it is too close to a commonly used password"],
  ])("refuses %o because %s", (password, why) => {
    expect(messages(newPasswordSchema.safeParse(password))).toEqual([
      `This password is too easy to guess: ${why}. Try three or four unrelated words, or a longer password.`,
    ]);
  });

  it.each(["correct-horse-battery", "kindred-parable-1979", "SunnyTripod#42", "Studio2026!"])(
    "accepts %o",
    (password) => {
      expect(newPasswordSchema.safeParse(password).success).toBe(true);
    },
  );

  it("gives a too-short password only the length message, and a too-long one only its own", () => {
    expect(messages(newPasswordSchema.safeParse("1234567"))).toEqual([
      "Password must be at least 8 characters",
    ]);
    expect(messages(newPasswordSchema.safeParse("z8$kQ!2m".repeat(26)))).toEqual([
      "Password must be at most 200 characters",
    ]);
    expect(messages(newPasswordSchema.safeParse(undefined))).toEqual([
      "Password must be at least 8 characters",
    ]);
  });

  it("says it in our words when zxcvbn names no reason", () => {
    expect(weakPasswordMessage(null)).toBe(
      "This password is too easy to guess. Try three or four unrelated words, or a longer password.",
    );
    expect(weakPasswordMessage("a reason we never heard of")).toBe(weakPasswordMessage(null));
  });

  // How long the check takes at the maximum length is the bench's to measure, not a test's.
  it("judges a password of the maximum length, and refuses one character more", () => {
    const sentence =
      "Seven purple elephants juggle quietly beside a rusty lighthouse while 42 sleepy otters debate jazz, vinyl and the price of marmalade on Tuesday mornings in Savannah, long before the ferry returns home.";
    const longest = sentence.slice(0, PASSWORD_MAX);
    expect(longest).toHaveLength(PASSWORD_MAX);
    expect(newPasswordSchema.safeParse(longest).success).toBe(true);
    expect(newPasswordSchema.safeParse(`${longest}!`).success).toBe(false);
    expect(newPasswordSchema.safeParse("password123".padEnd(PASSWORD_MAX, "!")).success).toBe(
      false,
    );
  });
});

describe("every schema that sets a password uses the rule", () => {
  it("refuses a weak password at registration and at the password change", () => {
    const registration = registerSchema.safeParse({
      username: "ada.l",
      password: "password123",
      firstName: "Ada",
      lastName: "Lovelace",
      phoneNumber: "(404) 555-0100",
      email: "ada@example.com",
    });
    expect(registration.error?.issues).toEqual([
      expect.objectContaining({ path: ["password"], message: expect.stringMatching(/too easy/) }),
    ]);
    const change = passwordChangeSchema.safeParse({
      currentPassword: "the-current-secret",
      newPassword: "qwertyuiop",
      confirmNewPassword: "qwertyuiop",
    });
    expect(change.error?.issues).toEqual([
      expect.objectContaining({
        path: ["newPassword"],
        message: expect.stringMatching(/too easy/),
      }),
    ]);
  });
});
