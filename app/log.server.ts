/**
 * Error logging without leaks: drizzle wraps driver errors in a message that quotes the SQL
 * and its parameters (which may hold a password hash or an e-mail), and stack traces show
 * internals, so only the innermost error's name and message are written.
 */
export function describeError(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (current instanceof Error) return `${current.name}: ${current.message.split("\n")[0]}`;
  return "Non-error thrown";
}

export function logError(context: string, error: unknown) {
  console.error(`[error] ${context}: ${describeError(error)}`);
}
