import { describe, expect, it } from "vitest";
import { loginSchema, registerFormSchema, registerSchema } from "./account";

const valid = {
  username: "ada.l",
  password: "long-enough",
  confirmPassword: "long-enough",
  firstName: "Ada",
  lastName: "Lovelace",
  phoneNumber: "(404) 555-0100",
  email: "ada@example.com",
};

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe("loginSchema", () => {
  it("needs a username and an 8-character password", () => {
    expect(messages(loginSchema.safeParse({ username: " ", password: "12345678" }))).toEqual([
      "Username is required",
    ]);
    expect(messages(loginSchema.safeParse({ username: "ada", password: "1234567" }))).toEqual([
      "Password must be at least 8 characters",
    ]);
    expect(loginSchema.safeParse({ username: " ada ", password: "12345678" }).data?.username).toBe(
      "ada",
    );
  });
});

describe("registerSchema", () => {
  it("accepts a complete registration and drops an empty business name", () => {
    const result = registerFormSchema.safeParse({ ...valid, businessName: "  " });
    expect(result.success).toBe(true);
    expect(result.data?.businessName).toBeUndefined();
    expect(result.data?.isStakeholder).toBe(false);
  });

  it.each([
    ["on", true],
    ["true", true],
    [true, true],
    [undefined, false],
    ["false", false],
  ])("reads the stakeholder flag %o as %o", (input, expected) => {
    expect(registerSchema.safeParse({ ...valid, isStakeholder: input }).data?.isStakeholder).toBe(
      expected,
    );
  });

  it('says "Passwords don\'t match" on confirmPassword', () => {
    const result = registerFormSchema.safeParse({ ...valid, confirmPassword: "other-password" });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ["confirmPassword"], message: "Passwords don't match" }),
    ]);
  });

  it("requires confirmPassword on the form but not in the API payload", () => {
    const { confirmPassword: _, ...payload } = valid;
    expect(registerSchema.safeParse(payload).success).toBe(true);
    expect(registerFormSchema.safeParse(payload).success).toBe(false);
  });

  it.each([
    ["phoneNumber", "555-0100", "Please enter a valid phone number"],
    ["phoneNumber", "call me maybe!", "Please enter a valid phone number"],
    ["email", "ada@", "Please enter a valid email address"],
    ["firstName", "", "First name is required"],
    ["lastName", "   ", "Last name is required"],
    ["username", "ab", "Username must be at least 3 characters"],
    [
      "username",
      "ada lovelace",
      "Username may only use letters, numbers, dots, dashes and underscores",
    ],
  ])("rejects %s %o with %o", (field, value, message) => {
    expect(messages(registerFormSchema.safeParse({ ...valid, [field]: value }))).toContain(message);
  });
});
