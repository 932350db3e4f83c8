// npm run create-admin -- --username NAME [--email ADDRESS --phone NUMBER] [--first-name F] [--last-name L]
// npm run create-admin -- --username NAME --promote-existing [--yes]
// Creates an admin account (--email and --phone are needed, as at registration). A name that
// is taken is refused: whoever registered it first would become staff. --promote-existing
// promotes that account after showing its e-mail and sign-up date and asking (--yes: no question). The password of a new account comes from
// ADMIN_PASSWORD or, in a terminal, is asked for twice without echo; a weak one is refused.
// In the image (no tsx, no development dependencies): node build/cli/create-admin.js ...
// (npm run build bundles this file there). docs/deploy.md "First deploy".
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { passwordEstimatorReady } from "#app/web/passwords.server";
import { createOrPromoteAdmin, type ExistingAccount } from "#app/workflows/create-admin.server";

const USAGE =
  "Usage: create-admin --username NAME [--email ADDRESS --phone NUMBER] [--first-name F] [--last-name L]\n" +
  "       create-admin --username NAME --promote-existing [--yes]";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const OPTIONS = {
  username: { type: "string" },
  email: { type: "string" },
  phone: { type: "string" },
  "first-name": { type: "string" },
  "last-name": { type: "string" },
  "promote-existing": { type: "boolean" },
  yes: { type: "boolean" },
} as const;

function readOptions() {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>["values"];
  try {
    values = parseArgs({ options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch {
    // Our words, naming the argument: parseArgs's own messages are written for programmers.
    const known = new Set(Object.keys(OPTIONS).map((name) => `--${name}`));
    const argv = process.argv.slice(2);
    const unknown = argv.find((arg) => !known.has(arg.split("=")[0] ?? "") && arg.startsWith("-"));
    const takesValue = (arg = "") =>
      (OPTIONS as Record<string, { type: string }>)[arg.slice(2)]?.type === "string";
    const stray = argv.find((arg, i) => !arg.startsWith("-") && !takesValue(argv[i - 1]));
    const last = argv.at(-1);
    const problem = unknown
      ? `${unknown} is not an option of create-admin.`
      : stray
        ? `"${stray}" is not an option of create-admin (options start with --).`
        : `${last} needs a value.`;
    return fail(`${problem}\n${USAGE}`);
  }
  if (!values.username) fail(`--username is required.\n${USAGE}`);
  if (values.yes && !values["promote-existing"])
    fail(`--yes goes with --promote-existing.\n${USAGE}`);
  return { ...values, username: values.username };
}

/** One line typed in the terminal without echo (raw mode), ended by Enter; Ctrl-C aborts. */
function askHidden(question: string): Promise<string> {
  const input = process.stdin;
  // Echo goes off before the question shows: a password typed at once is never echoed.
  input.setRawMode(true);
  process.stdout.write(question);
  input.resume();
  input.setEncoding("utf8");
  return new Promise((resolve) => {
    let typed = "";
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === "\u0003") {
          process.stdout.write("\n");
          fail("Cancelled.");
        }
        if (character === "\r" || character === "\n") {
          input.setRawMode(false);
          input.pause();
          input.off("data", onData);
          process.stdout.write("\n");
          resolve(typed);
          return;
        }
        if (character === "\u007f" || character === "\b") typed = typed.slice(0, -1);
        else typed += character;
      }
    };
    input.on("data", onData);
  });
}

async function askPassword(): Promise<string> {
  const fromEnvironment = process.env.ADMIN_PASSWORD;
  if (fromEnvironment) return fromEnvironment;
  if (!process.stdin.isTTY) {
    fail("A new account needs a password: set ADMIN_PASSWORD, or run this in a terminal.");
  }
  const first = await askHidden("Password for the new admin: ");
  const again = await askHidden("The same password again: ");
  if (first !== again) fail("The passwords do not match; nothing was changed.");
  return first;
}

/** Shows whose account it is, then asks (or takes --yes) before it becomes staff. */
async function confirmPromotion(account: ExistingAccount, yes: boolean): Promise<boolean> {
  const signedUp = new Date(account.createdAt).toISOString().slice(0, 10);
  console.log(
    `${account.username} (account ${account.id}): e-mail ${account.email}, signed up ${signedUp}.`,
  );
  if (yes) return true;
  if (!process.stdin.isTTY) {
    fail("Nothing was changed: confirm in a terminal, or add --yes.");
  }
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await prompt.question("Make this account an admin? Type yes to confirm: ");
  prompt.close();
  return answer.trim().toLowerCase() === "yes";
}

const options = readOptions();
await passwordEstimatorReady;
const outcome = await createOrPromoteAdmin(
  {
    username: options.username,
    email: options.email,
    phoneNumber: options.phone,
    firstName: options["first-name"],
    lastName: options["last-name"],
  },
  {
    askPassword,
    confirmPromotion: options["promote-existing"]
      ? (account) => confirmPromotion(account, options.yes ?? false)
      : undefined,
  },
);
if (!outcome.ok) {
  fail(`Nothing was changed:\n${outcome.problems.map((problem) => `- ${problem}`).join("\n")}`);
}
switch (outcome.action) {
  case "created":
    console.log(`Created admin ${outcome.username} (account ${outcome.id}).`);
    break;
  case "promoted":
    console.log(
      `Promoted ${outcome.username} (account ${outcome.id}) to admin; password unchanged.`,
    );
    break;
  case "already-admin":
    console.log(
      `${outcome.username} (account ${outcome.id}) is already an admin; nothing changed.`,
    );
    break;
}
// The database closes with the process; nothing else keeps it alive.
process.exit(0);
