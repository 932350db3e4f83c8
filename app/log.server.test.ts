import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  createLogger,
  describeError,
  noteRequestUser,
  requestIdFrom,
  runWithRequest,
} from "#app/log.server";

/** A logger writing into an array of parsed lines. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ level: "info", pretty: false }, stream) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("requestIdFrom", () => {
  it("takes Fly's id behind the proxy, when it looks like an id", () => {
    expect(requestIdFrom("01HQ-fly-abc", true)).toBe("01HQ-fly-abc");
    expect(requestIdFrom("a".repeat(64), true)).toBe("a".repeat(64));
  });

  it("makes its own id when not behind the proxy: anyone could send Fly-Request-Id", () => {
    expect(requestIdFrom("01HQ-fly-abc", false)).toMatch(UUID);
  });

  it.each([
    ["a newline", "abc\ninjected"],
    ["JSON", '{"level":60}'],
    ["a space", "abc def"],
    ["markup", "<script>"],
    ["too long", "a".repeat(65)],
    ["empty", ""],
    ["underscores and dots", "a_b.c"],
  ])("makes a new id for %s", (_name, given) => {
    const id = requestIdFrom(given, true);
    expect(id).not.toBe(given);
    expect(id).toMatch(UUID);
  });

  it("ignores a header sent twice (an array) and makes a new id", () => {
    expect(requestIdFrom(["a", "b"], true)).not.toMatch(/^[ab]$/);
  });

  it("gives each request its own new id", () => {
    expect(requestIdFrom(undefined, true)).not.toBe(requestIdFrom(undefined, true));
  });
});

describe("the logger", () => {
  it("redacts secret fields, at the top and one level down", () => {
    const { lines, logger } = capture();
    logger.info(
      {
        password: "hunter2-password",
        cardNumber: "4242424242424242",
        sessionId: "session-id-value",
        signInId: "sign-in-id-value",
        user: { password: "nested-password", cookie: "__session=abc", id: 7 },
        headers: { cookie: "__session=abc", authorization: "Bearer x" },
        html: "<p>e-mail body</p>",
        bookingId: 12,
      },
      "event",
    );
    const text = JSON.stringify(lines);
    for (const secret of [
      "hunter2",
      "4242",
      "session-id-value",
      "sign-in-id-value",
      "nested-password",
      "abc",
      "Bearer",
      "e-mail body",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({ bookingId: 12, user: { id: 7 }, msg: "event" });
  });

  it("adds the request id and user of the request being answered, and none outside one", async () => {
    const { lines, logger } = capture();
    const record = { reqId: "req-1", userId: undefined, route: undefined };
    await runWithRequest(record, async () => {
      logger.info("before sign-in");
      await Promise.resolve();
      noteRequestUser(42);
      logger.info("after sign-in");
    });
    logger.info("outside");
    expect(lines.map(({ reqId, userId, msg }) => ({ reqId, userId, msg }))).toEqual([
      { reqId: "req-1", userId: undefined, msg: "before sign-in" },
      { reqId: "req-1", userId: 42, msg: "after sign-in" },
      { reqId: undefined, userId: undefined, msg: "outside" },
    ]);
  });

  it("lets a line's own request id win over the current one, written once", () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ level: "info", pretty: false }, stream);
    runWithRequest({ reqId: "current", userId: undefined, route: undefined }, () =>
      logger.info({ reqId: "own" }, "line"),
    );
    expect(chunks.join("").match(/"reqId"/g)).toHaveLength(1);
    expect(JSON.parse(chunks.join("")).reqId).toBe("own");
  });
});

describe("describeError", () => {
  it("keeps the innermost error's first line: no SQL, no stack", () => {
    const driver = new Error("UNIQUE constraint failed: users.email\nextra");
    const wrapped = new Error("Failed query: insert into users values (?, ?)\nparams: a@b.c,hash", {
      cause: driver,
    });
    expect(describeError(wrapped)).toBe("Error: UNIQUE constraint failed: users.email");
    expect(describeError("text")).toBe("Non-error thrown");
  });
});
