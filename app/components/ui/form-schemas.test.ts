import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import "#tests/setup/password-estimator";
import {
  loginSchema,
  passwordChangeSchema,
  profileApiSchema,
  profileSchema,
  registerFormSchema,
  registerSchema,
} from "#app/domain/account";
import { bulkChangeSchema, statusChangeSchema } from "#app/domain/admin-workflow-forms";
import { blockedTimeSchema } from "#app/domain/blocked-times";
import {
  bookingFormSchema,
  bookingApiPayloadSchema,
  bookingPayloadSchema,
  quoteQuerySchema,
  rescheduleSchema,
  waitlistRequestSchema,
} from "#app/domain/booking-form";
import { cardFormSchema } from "#app/domain/card";
import { passkeyNameSchema, removePasskeySchema } from "#app/domain/passkey";
import { couponFormSchema } from "#app/domain/coupons";
import { userActionSchema } from "#app/domain/user-actions";
import { serviceBody, serviceSchema } from "#app/domain/services";
import { fileDeleteSchema, fileRenameSchema } from "#app/domain/session-file-forms";
import { seriesPreviewQuerySchema } from "#app/domain/series-preview";
import { studioInstant } from "#app/domain/studio-time";
import {
  supportActionSchema,
  supportRequestSchema,
  supportUpdateSchema,
} from "#app/domain/support";
import {
  apiLoginSchema,
  confirmTwoFactorSchema,
  disableTwoFactorSchema,
  loginCodeSchema,
} from "#app/domain/two-factor";
import { keepAsTyped, z } from "#app/domain/zod";
import { schemaConstraint } from "#app/components/ui/use-schema-form";

/**
 * Every message a person can see is one we wrote. This walks every form schema of the site
 * (and the JSON API's, where the API reads the same schema) field by field, feeding each field
 * nothing, blanks, the wrong type and far too much, and fails on any message that zod (or
 * conform) wrote instead of us.
 *
 * A library default is caught two ways. Each parse is given an error map of last resort that
 * answers a marker: zod asks it only when neither the check nor its schema has a message of
 * its own, which is exactly when a person would read zod's default. And every message is
 * matched against the shapes of zod's and conform's English defaults, for a message that was
 * written out ready-made (conform's coercion writes its own "Invalid input: ..." text).
 */

const NOW = studioInstant("2027-03-01", "12:00");
const THIS_MONTH = { year: 2027, month: 3 };

type FormValue = string | string[];

type Entry = {
  /** The identifier the server passes to parseWithZod, readJson or safeParse. */
  name: string;
  schema: z.ZodType;
  /** A submission every rule accepts, as the form posts it (text, repeated for a list). */
  form?: Record<string, FormValue>;
  /** The same for the JSON API, where it reads this schema. */
  json?: Record<string, unknown>;
};

const contact = {
  firstName: "Ada",
  lastName: "Lovelace",
  businessName: "Engines Ltd",
  phoneNumber: "(404) 555-0100",
  email: "ada@example.com",
};

const booking = {
  ...contact,
  stakeholder: "no",
  recordingDate: "2027-03-10",
  recordingTime: "10:00",
  guestCount: "2",
  hoursNeeded: "2",
  isRetainer: "on",
  selectedServices: ["1", "2"],
  couponCode: "SAVE10",
};

const card = {
  paymentMethod: "card",
  cardName: "Ada Lovelace",
  cardNumber: "4242 4242 4242 4242",
  expirationDate: "12/29",
  cvv: "123",
};

const support = {
  issueType: "BOOKING",
  description: "The door code did not work when I arrived.",
  preferredContactMethod: "PHONE",
  name: "Ada Lovelace",
  email: "ada@example.com",
  phoneNumber: "(404) 555-0100",
  bookingId: "12",
};

/** THE list: every schema a form or the JSON API reads. The source scan below holds it to that. */
const FORM_SCHEMAS: Entry[] = [
  { name: "keepAsTyped", schema: keepAsTyped, form: {} },
  {
    name: "loginSchema",
    schema: loginSchema,
    form: { username: "ada.l", password: "long-enough" },
    json: { username: "ada.l", password: "long-enough" },
  },
  {
    name: "apiLoginSchema",
    schema: apiLoginSchema,
    json: { username: "ada.l", password: "long-enough", code: "123456" },
  },
  { name: "loginCodeSchema", schema: loginCodeSchema, form: { code: "123 456" } },
  { name: "confirmTwoFactorSchema", schema: confirmTwoFactorSchema, form: { code: "123456" } },
  { name: "disableTwoFactorSchema", schema: disableTwoFactorSchema, form: { proof: "a-password" } },
  {
    name: "registerFormSchema",
    schema: registerFormSchema,
    form: {
      ...contact,
      username: "ada.l",
      password: "long-enough",
      confirmPassword: "long-enough",
      isStakeholder: "on",
    },
  },
  {
    name: "registerSchema",
    schema: registerSchema,
    json: { ...contact, username: "ada.l", password: "long-enough", isStakeholder: true },
  },
  { name: "profileSchema", schema: profileSchema, form: { ...contact, isStakeholder: "on" } },
  {
    name: "profileApiSchema",
    schema: profileApiSchema,
    json: { ...contact, isStakeholder: false },
  },
  {
    name: "passwordChangeSchema",
    schema: passwordChangeSchema,
    form: {
      currentPassword: "the-current-secret",
      newPassword: "brand-new-secret",
      confirmNewPassword: "brand-new-secret",
    },
  },
  { name: "bookingFormSchema", schema: bookingFormSchema(NOW), form: booking },
  {
    name: "bookingPayloadSchema",
    schema: bookingPayloadSchema(NOW),
    json: { ...booking, guestCount: 2, hoursNeeded: 2, selectedServices: [1, 2], userId: 7 },
  },
  {
    name: "bookingApiPayloadSchema",
    schema: bookingApiPayloadSchema(NOW),
    json: {
      ...booking,
      guestCount: 2,
      hoursNeeded: 2,
      selectedServices: [1, 2],
      waitlistEntryId: 3,
    },
  },
  {
    name: "rescheduleSchema",
    schema: rescheduleSchema(NOW),
    form: { recordingDate: "2027-03-10", recordingTime: "10:00" },
    json: { recordingDate: "2027-03-10", recordingTime: "10:00" },
  },
  {
    name: "waitlistRequestSchema",
    schema: waitlistRequestSchema(NOW),
    form: { recordingDate: "2027-03-10", recordingTime: "10:00", hoursNeeded: "2" },
    json: { recordingDate: "2027-03-10", recordingTime: "10:00", hoursNeeded: 2 },
  },
  {
    name: "quoteQuerySchema",
    schema: quoteQuerySchema,
    json: { date: "2027-03-10", hours: "2" },
  },
  {
    name: "seriesPreviewQuerySchema",
    schema: seriesPreviewQuerySchema,
    json: { date: "2027-03-10", time: "19:00", hours: "2", every: "week", count: "6" },
  },
  { name: "cardFormSchema", schema: cardFormSchema(THIS_MONTH), form: card, json: card },
  { name: "supportRequestSchema", schema: supportRequestSchema, form: support, json: support },
  {
    name: "supportUpdateSchema",
    schema: supportUpdateSchema,
    json: { status: "RESOLVED", resolution: "Replaced the door keypad." },
  },
  {
    name: "blockedTimeSchema",
    schema: blockedTimeSchema(NOW),
    form: {
      startDate: "2027-03-10",
      startTime: "09:00",
      endDate: "2027-03-10",
      endTime: "17:30",
      reason: "Acoustic panels replaced",
    },
  },
  {
    name: "couponFormSchema",
    schema: couponFormSchema,
    form: { code: "SUMMER25", type: "PERCENTAGE", amount: "12.5", maxUses: "0", expiryDate: "" },
  },
  {
    name: "serviceSchema",
    schema: serviceSchema,
    form: { name: "Teleprompter", description: "Reads your script", price: "40", duration: "30" },
    json: { name: "Teleprompter", description: "Reads your script", price: 40, duration: 30 },
  },
  {
    // POST and PUT /api/services: read loosely, then checked by serviceSchema's rules.
    name: "serviceBody",
    schema: serviceBody,
    json: { name: "Teleprompter", price: "40", duration: 30, isActive: true },
  },
  {
    name: "supportActionSchema",
    schema: supportActionSchema,
    form: { intent: "resolve", id: "12", resolution: "Replaced the door keypad." },
  },
  {
    name: "statusChangeSchema",
    schema: statusChangeSchema,
    form: { status: "CONFIRMED", note: "Paid at the desk" },
  },
  {
    name: "bulkChangeSchema",
    schema: bulkChangeSchema,
    form: { ids: ["3", "4"], status: "RECORDED" },
  },
  {
    name: "userActionSchema",
    schema: userActionSchema,
    form: { intent: "membership", userId: "7", isMember: "true" },
  },
  {
    name: "userActionSchema",
    schema: userActionSchema,
    form: { intent: "make-admin", userId: "7" },
  },
  {
    name: "fileRenameSchema",
    schema: fileRenameSchema,
    form: { fileId: "12", name: "Episode 4 - final mix.wav" },
  },
  { name: "fileDeleteSchema", schema: fileDeleteSchema, form: { fileId: "12" } },
  { name: "passkeyNameSchema", schema: passkeyNameSchema, form: { name: "Work laptop" } },
  { name: "removePasskeySchema", schema: removePasskeySchema, form: { passkeyId: "3" } },
];

// ------------------------------------------------------------------ what a default looks like

/** What the error map of last resort answers: zod asked it, so nobody else had a message. */
const UNWRITTEN = "<a library default would show here>";

/** The shapes of zod 4's and conform's English defaults. */
const DEFAULT_PATTERNS = [
  /^Invalid input/i,
  /^Invalid (string|email|url|enum|option|type|date|number|key|element|union|value)/i,
  /^Expected /,
  /^Too (big|small)/i,
  /^Required$/i,
  /received (undefined|null|string|number|boolean|object|array|nan|bigint|date|file)/i,
  /expected (string|number|boolean|object|array|int|date|bigint)/i,
  /^Unrecognized key/i,
  /^String must contain/i,
  /^Number must be/i,
];

const isDefault = (message: string) =>
  message === UNWRITTEN || DEFAULT_PATTERNS.some((pattern) => pattern.test(message));

// ------------------------------------------------------------------------- walking a schema

/** The fields of an object schema, through the refinements, pipes and transforms around it. */
function fieldsOf(schema: z.ZodType): string[] {
  const def = schema._zod.def as {
    type: string;
    shape?: Record<string, unknown>;
    in?: z.ZodType;
    innerType?: z.ZodType;
    options?: z.ZodType[];
  };
  if (def.type === "object") return Object.keys(def.shape ?? {});
  if (def.type === "union") return [...new Set((def.options ?? []).flatMap(fieldsOf))];
  if (def.type === "pipe" && def.in) return fieldsOf(def.in);
  if (def.innerType) return fieldsOf(def.innerType);
  throw new Error(`Not an object schema: ${def.type}`);
}

const HUGE_TEXT = "x".repeat(5000);
const HUGE_NUMBER = "9".repeat(400);

/** What a form can post in one field: text of any kind, the field twice, a file. */
const FORM_VALUES: { label: string; value: FormValue | File | undefined }[] = [
  { label: "missing", value: undefined },
  { label: "empty", value: "" },
  { label: "spaces", value: "   " },
  { label: "oversized text", value: HUGE_TEXT },
  { label: "oversized number", value: HUGE_NUMBER },
  { label: "negative", value: "-1" },
  { label: "zero", value: "0" },
  { label: "fraction", value: "1.5" },
  { label: "word", value: "abc" },
  { label: "impossible date", value: "2027-02-30" },
  { label: "impossible time", value: "25:61" },
  { label: "markup", value: "<script>alert(1)</script>" },
  { label: "twice", value: ["abc", "def"] },
  { label: "a file", value: new File(["x"], "x.txt", { type: "text/plain" }) },
];

/** What a JSON client can send in one field. */
const JSON_VALUES: { label: string; value: unknown }[] = [
  { label: "missing", value: undefined },
  { label: "null", value: null },
  { label: "empty", value: "" },
  { label: "spaces", value: "   " },
  { label: "zero", value: 0 },
  { label: "negative", value: -1 },
  { label: "fraction", value: 1.5 },
  { label: "huge number", value: 1e308 },
  { label: "unsafe integer", value: Number.MAX_SAFE_INTEGER + 2 },
  { label: "true", value: true },
  { label: "false", value: false },
  { label: "object", value: {} },
  { label: "empty list", value: [] },
  { label: "list of text", value: ["a"] },
  { label: "list of numbers", value: [1] },
  { label: "oversized text", value: HUGE_TEXT },
  { label: "oversized number", value: HUGE_NUMBER },
];

function formData(values: Record<string, FormValue | File | undefined>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
  }
  return form;
}

function formMessages(schema: z.ZodType, values: Record<string, FormValue | File | undefined>) {
  const submission = parseWithZod(formData(values), { schema, error: () => UNWRITTEN });
  if (submission.status === "success") return [];
  return Object.values(submission.error ?? {}).flatMap((messages) => messages ?? []);
}

function jsonMessages(schema: z.ZodType, body: Record<string, unknown>) {
  const result = schema.safeParse(body, { error: () => UNWRITTEN });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

/** Every library message the schema lets through, as "field = case: message". */
function defaultsIn(entry: Entry): string[] {
  const found: string[] = [];
  const fields = fieldsOf(entry.schema);
  if (entry.form) {
    const valid = entry.form;
    for (const field of new Set([...fields, ...Object.keys(valid)])) {
      for (const { label, value } of FORM_VALUES) {
        for (const message of formMessages(entry.schema, { ...valid, [field]: value })) {
          if (isDefault(message)) found.push(`form ${field} = ${label}: ${message}`);
        }
      }
    }
    for (const message of formMessages(entry.schema, {})) {
      if (isDefault(message)) found.push(`form, nothing posted: ${message}`);
    }
  }
  if (entry.json) {
    const valid = entry.json;
    for (const field of new Set([...fields, ...Object.keys(valid)])) {
      for (const { label, value } of JSON_VALUES) {
        const body = { ...valid, [field]: value };
        if (value === undefined) delete body[field];
        for (const message of jsonMessages(entry.schema, body)) {
          if (isDefault(message)) found.push(`json ${field} = ${label}: ${message}`);
        }
      }
    }
    // A body that is not an object is refused by readJson before any schema sees it
    // (app/web/api.server.test.ts).
    for (const message of jsonMessages(entry.schema, {})) {
      if (isDefault(message)) found.push(`json, empty object: ${message}`);
    }
  }
  return found;
}

describe("every form schema speaks in our own words", () => {
  it.each(FORM_SCHEMAS.map((entry) => [entry.name, entry] as const))(
    "%s accepts its valid submission",
    (_name, entry) => {
      if (entry.form) expect(formMessages(entry.schema, entry.form)).toEqual([]);
      if (entry.json) expect(jsonMessages(entry.schema, entry.json)).toEqual([]);
    },
  );

  it.each(FORM_SCHEMAS.filter((entry) => entry.form).map((entry) => [entry.name, entry] as const))(
    "%s gives its form's fields their native constraints",
    (_name, entry) => {
      const constraint = schemaConstraint(entry.schema);
      for (const field of Object.keys(entry.form ?? {})) {
        expect(constraint[field], field).toBeDefined();
      }
    },
  );

  it.each(FORM_SCHEMAS.map((entry) => [entry.name, entry] as const))(
    "%s never answers with a library's default message",
    (_name, entry) => {
      expect(defaultsIn(entry)).toEqual([]);
    },
  );

  it("would catch a default: a bare schema, a default wording and an empty body", () => {
    const bare: Entry = {
      name: "bare",
      schema: z.object({ name: z.string().max(5), age: z.number().int() }),
      form: { name: "Ada", age: "36" },
      json: { name: "Ada", age: 36 },
    };
    const found = defaultsIn(bare);
    expect(found).toContain(`form name = missing: ${UNWRITTEN}`);
    expect(found).toContain(`json age = fraction: ${UNWRITTEN}`);
    expect(found).toContain(`json, empty object: ${UNWRITTEN}`);
    // A message written out in zod's words is caught by its shape.
    const copied: Entry = {
      name: "copied",
      schema: z.object({ name: z.string({ error: "Invalid input: expected string" }) }),
      form: { name: "Ada" },
    };
    expect(defaultsIn(copied)).toContain("form name = missing: Invalid input: expected string");
  });
});

// ------------------------------------------------------------ the list against the source

const APP = join(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "+types" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The schema identifier of each server-side parse: parseWithZod, readJson and safeParse. */
function parsedSchemas(source: string): { name: string; how: string; imported: boolean }[] {
  const found: { name: string; how: string; imported: boolean }[] = [];
  const importedNames = new Set(
    [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*"#app\/domain\/[^"]+"/g)].flatMap((match) =>
      (match[1] ?? "")
        .split(",")
        .map((name) => name.replace(/^\s*type\s+/, "").trim())
        .filter(Boolean),
    ),
  );
  const add = (name: string | undefined, how: string) => {
    if (name) found.push({ name, how, imported: importedNames.has(name) });
  };
  for (const match of source.matchAll(
    /parseWithZod\(\s*[\w.]+\s*,\s*\{\s*schema\s*(:\s*([\w$]+))?/g,
  )) {
    // `{ schema }` without a value names a variable: the scan cannot follow it, so it fails.
    add(match[2] ?? "<a schema the scan cannot name>", "parseWithZod");
  }
  // An API route hands readJson the schema it exports as `jsonBody`: follow it to its name.
  const exported = source.match(/export const jsonBody = ([\w$]+)/)?.[1];
  for (const match of source.matchAll(/readJson\(\s*\w+\s*,\s*([\w$]+)/g))
    add(match[1] === "jsonBody" && exported ? exported : match[1], "readJson");
  for (const match of source.matchAll(/\b([\w$]+)(?:\([^()]*\))?\.safeParse\(/g)) {
    add(match[1], "safeParse");
  }
  return found;
}

describe("the list of form schemas", () => {
  const listed = new Set(FORM_SCHEMAS.map((entry) => entry.name));
  const uses = ["routes", "web"].flatMap((dir) =>
    sourceFiles(join(APP, dir)).flatMap((file) =>
      parsedSchemas(readFileSync(file, "utf8")).map((use) => ({
        ...use,
        file: relative(APP, file),
      })),
    ),
  );

  it("names every schema a form action parses", () => {
    const formParses = uses.filter((use) => use.how === "parseWithZod");
    expect(formParses.length).toBeGreaterThan(5);
    expect(formParses.filter((use) => !listed.has(use.name))).toEqual([]);
  });

  it("names every form schema the JSON API or a loader reads as well", () => {
    // API-only bodies declared in their route ({ isActive } and the like) are not forms.
    const shared = uses.filter((use) => use.how !== "parseWithZod" && use.imported);
    expect(shared.length).toBeGreaterThan(5);
    expect(shared.filter((use) => !listed.has(use.name))).toEqual([]);
  });

  it("finds a parse the list does not name", () => {
    const source = `import { secretSchema } from "#app/domain/secret";
      const submission = parseWithZod(formData, { schema: mysterySchema(now) });
      const body = await readJson(request, secretSchema);`;
    expect(parsedSchemas(source)).toEqual([
      { name: "mysterySchema", how: "parseWithZod", imported: false },
      { name: "secretSchema", how: "readJson", imported: true },
    ]);
  });
});
