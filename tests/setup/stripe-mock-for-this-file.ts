import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, vi } from "vitest";
import { logger } from "#app/log.server";
import { createStripeMock, type StripeMock } from "#tests/mocks/stripe";

/**
 * The Stripe mock (tests/mocks/stripe.ts) for one in-process test file: MSW answers
 * api.stripe.com from before its first test to after its last (any other outside request fails
 * the test), and the mock's state and outage are cleared around each test. `logged` holds the
 * test's logError lines as "[error] context: what failed" (logger.error is spied on, so they
 * are read rather than printed). Call it at the top level of the file, after the settings.
 *
 * Not in tests/mocks/stripe.ts: the browser tests load that file in Playwright, without Vitest.
 */
export function stripeMockForThisFile(): { stripe: StripeMock; logged: string[] } {
  const stripe = createStripeMock();
  const server = setupServer(...stripe.handlers);
  const logged: string[] = [];

  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  beforeEach(() => {
    stripe.reset();
    logged.length = 0;
    vi.spyOn(logger, "error").mockImplementation(((fields: { error?: string }, context: string) => {
      logged.push(`[error] ${context}: ${fields.error}`);
    }) as never);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    server.resetHandlers();
    stripe.setOutage(null);
  });
  afterAll(() => server.close());

  return { stripe, logged };
}
