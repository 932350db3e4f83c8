import { newPasswordSchema, PASSWORD_MIN } from "#app/domain/password";
import { requiredText, z } from "#app/domain/zod";

/**
 * A login matches its account case-insensitively (SQLite's lower(), ASCII only, as usernames
 * are), so the login throttle counts "Ada" and "ada " as one account.
 */
export function matchingUsername(username: string): string {
  return username.trim().replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

export const loginSchema = z.object({
  username: requiredText("Username is required").max(50, "Username is required"),
  password: z
    .string({ error: `Password must be at least ${PASSWORD_MIN} characters` })
    .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
    .max(200, "Password must be at most 200 characters"),
});

const stakeholderFlag = z.preprocess(
  (value) => value === true || value === "true" || value === "on" || value === "yes",
  z.boolean(),
);

/** Every field carries its own message for a missing or mistyped value too (see requiredText). */
export const profileFields = {
  firstName: requiredText("First name is required").max(
    100,
    "First name must be at most 100 characters",
  ),
  lastName: requiredText("Last name is required").max(
    100,
    "Last name must be at most 100 characters",
  ),
  businessName: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z
      .string({ error: "Please enter a valid business name" })
      .trim()
      .max(120, "Business name must be at most 120 characters")
      .optional(),
  ),
  phoneNumber: z
    .string({ error: "Please enter a valid phone number" })
    .trim()
    .min(10, "Please enter a valid phone number")
    .max(30, "Please enter a valid phone number")
    // Its characters are read once its length is right: one message, however many rules break.
    .pipe(z.string().regex(/^[+()\d\s.-]+$/, "Please enter a valid phone number")),
  email: z
    .string({ error: "Please enter a valid email address" })
    .trim()
    .max(254, "Please enter a valid email address")
    .pipe(z.email("Please enter a valid email address")),
  isStakeholder: stakeholderFlag.default(false),
};

const newPassword = newPasswordSchema;

export const registerSchema = z
  .object({
    username: requiredText("Username is required")
      .min(3, "Username must be at least 3 characters")
      .max(50, "Username must be at most 50 characters")
      .regex(
        /^[A-Za-z0-9._-]+$/,
        "Username may only use letters, numbers, dots, dashes and underscores",
      ),
    password: newPassword,
    confirmPassword: z.string({ error: "Passwords don't match" }).optional(),
    ...profileFields,
  })
  .refine(
    (value) => value.confirmPassword === undefined || value.password === value.confirmPassword,
    {
      message: "Passwords don't match",
      path: ["confirmPassword"],
    },
  );

/** The form always sends confirmPassword; the JSON API omits it (docs/product.md "Data"). */
export const registerFormSchema = registerSchema.refine(
  (value) => value.confirmPassword !== undefined,
  {
    message: "Passwords don't match",
    path: ["confirmPassword"],
  },
);

export type RegisterInput = z.infer<typeof registerSchema>;

export const profileSchema = z.object(profileFields);

export type ProfileInput = z.infer<typeof profileSchema>;

/**
 * A program sends back what GET /api/user answered (a null business name), and a PUT replaces the
 * whole profile, so the stakeholder flag must be a real boolean, never read as false when missing.
 */
export const profileApiSchema = profileSchema.extend({
  businessName: z.preprocess(
    (value) => (value === null ? undefined : value),
    profileFields.businessName,
  ),
  isStakeholder: z.boolean({ error: "isStakeholder must be true or false" }),
});

export const WRONG_CURRENT_PASSWORD = "Your current password is incorrect";

export const USERNAME_TAKEN = "Username already exists";

export const passwordChangeSchema = z
  .object({
    currentPassword: z
      .string({ error: "Please enter your current password" })
      .min(1, "Please enter your current password")
      .max(200, WRONG_CURRENT_PASSWORD),
    newPassword,
    confirmNewPassword: z.string({ error: "Passwords don't match" }),
  })
  .refine((value) => value.newPassword === value.confirmNewPassword, {
    message: "Passwords don't match",
    path: ["confirmNewPassword"],
  })
  .refine((value) => value.newPassword !== value.currentPassword, {
    message: "Choose a password different from your current one",
    path: ["newPassword"],
  });

/** docs/product.md "Accounts and sign-ins". */
export const SIGN_OUT_OTHER_DEVICES = "sign-out-other-devices";
