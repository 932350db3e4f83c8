import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  loginSchema,
  passwordChangeSchema,
  profileApiSchema,
  profileSchema,
  registerFormSchema,
  registerSchema,
} from "#app/domain/account";

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

  it("answers a blank form field in our words, as the /auth form posts it", () => {
    // conform reads an empty input as missing: that used to be zod's "Invalid input:
    // expected string, received undefined" under Username.
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...valid, username: "", businessName: "" })) {
      form.set(name, value);
    }
    const submission = parseWithZod(form, { schema: registerFormSchema });
    expect(submission.status).toBe("error");
    expect(submission.reply().error).toEqual({ username: ["Username is required"] });
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

const profile = {
  firstName: "Ada",
  lastName: "Lovelace",
  businessName: "Analytical Audio",
  phoneNumber: "(404) 555-0100",
  email: "ada@example.com",
};

describe("profileSchema", () => {
  it("keeps the registration rules: names, phone and e-mail required, business optional", () => {
    const result = profileSchema.safeParse({ ...profile, businessName: " ", firstName: " Ada " });
    expect(result.data).toEqual({ ...profile, businessName: undefined, isStakeholder: false });
    expect(messages(profileSchema.safeParse({}))).toEqual([
      "First name is required",
      "Last name is required",
      "Please enter a valid phone number",
      "Please enter a valid email address",
    ]);
  });

  it("reads the 'I am a stakeholder' checkbox as the form posts it", () => {
    expect(profileSchema.safeParse({ ...profile, isStakeholder: "on" }).data?.isStakeholder).toBe(
      true,
    );
    expect(profileSchema.safeParse(profile).data?.isStakeholder).toBe(false);
  });

  it("ignores fields a customer does not own", () => {
    const result = profileSchema.safeParse({ ...profile, isAdmin: true, username: "root" });
    expect(result.data).not.toHaveProperty("isAdmin");
    expect(result.data).not.toHaveProperty("username");
  });
});

describe('the username and phone rules (docs/product.md "Accounts and sign-ins", "Validation")', () => {
  const username = (value: string) =>
    messages(registerSchema.safeParse({ ...valid, username: value }));
  const phone = (value: string) =>
    messages(profileSchema.safeParse({ ...profile, phoneNumber: value }));

  it.each(["abc", "a".repeat(50), "Ada.Lovelace_1-x", " ada "])(
    "takes the username %o",
    (value) => {
      expect(username(value)).toEqual([]);
    },
  );

  it.each([
    [" ab ", "Username must be at least 3 characters"],
    ["a".repeat(51), "Username must be at most 50 characters"],
    ["adé", "Username may only use letters, numbers, dots, dashes and underscores"],
    // A Cyrillic а: it would pass for "ada" beside it.
    ["\u0430da", "Username may only use letters, numbers, dots, dashes and underscores"],
    ["ada@studio", "Username may only use letters, numbers, dots, dashes and underscores"],
    ["   ", "Username is required"],
  ])("refuses the username %o: %s", (value, message) => {
    expect(username(value)).toEqual([message]);
  });

  it.each([
    "4045550100",
    "404 555 01",
    "(404) 555-0100",
    "404.555.0100",
    "+44 20 7946 0958",
    ` ${"1".repeat(30)} `,
  ])("takes the phone number %o", (value) => {
    expect(phone(value)).toEqual([]);
  });

  it.each([
    "404555010",
    " 404555010 ",
    "1".repeat(31),
    "404-555-CALL",
    "555-CALL",
    "404 555 0100 x12",
    "\u0664\u0660\u0664\u0665\u0665\u0665\u0660\u0661\u0660\u0660",
    "          ",
  ])("refuses the phone number %o", (value) => {
    expect(phone(value)).toEqual(["Please enter a valid phone number"]);
  });
});

describe("profileApiSchema", () => {
  it("takes a null business name, as GET /api/user answers it", () => {
    const result = profileApiSchema.safeParse({
      ...profile,
      businessName: null,
      isStakeholder: true,
    });
    expect(result.data).toEqual({ ...profile, businessName: undefined, isStakeholder: true });
  });

  it.each([undefined, "yes", "true", 1])("wants a boolean isStakeholder, not %o", (value) => {
    expect(messages(profileApiSchema.safeParse({ ...profile, isStakeholder: value }))).toEqual([
      "isStakeholder must be true or false",
    ]);
  });
});

describe("passwordChangeSchema", () => {
  const change = {
    currentPassword: "the-current-secret",
    newPassword: "brand-new-secret",
    confirmNewPassword: "brand-new-secret",
  };

  it("accepts a new password that follows the registration rules", () => {
    expect(passwordChangeSchema.safeParse(change).success).toBe(true);
  });

  it.each([
    [{ currentPassword: undefined }, "currentPassword", "Please enter your current password"],
    [
      { newPassword: "short", confirmNewPassword: "short" },
      "newPassword",
      "Password must be at least 8 characters",
    ],
    [{ confirmNewPassword: "brand-new-secrets" }, "confirmNewPassword", "Passwords don't match"],
    [{ confirmNewPassword: undefined }, "confirmNewPassword", "Passwords don't match"],
    [
      { newPassword: "the-current-secret", confirmNewPassword: "the-current-secret" },
      "newPassword",
      "Choose a password different from your current one",
    ],
  ])("refuses %o on %s with %o", (overrides, field, message) => {
    const result = passwordChangeSchema.safeParse({ ...change, ...overrides });
    expect(result.error?.issues).toContainEqual(
      expect.objectContaining({ path: [field], message }),
    );
  });
});
