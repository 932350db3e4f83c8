import { and, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { blockedTimes, emailOutbox, technicalAssistanceRequests } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { BLOCK_MESSAGES } from "#app/domain/blocked-times";
import { addStudioDays } from "#app/domain/studio-time";
import { SUPPORT_UPDATE_MESSAGES } from "#app/domain/support";
import { SANDBOXED_DOCUMENT_POLICY } from "#app/web/security.server";
import { createOutboxEmail } from "#tests/factories/support";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { bookingPayload } from "#tests/setup/payloads";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * The admin's Support tab and its JSON twin, blocked times and the Emails page, against the
 * production build: who may use them, every refusal (with `message` on JSON and nothing
 * written), the e-mail of a resolved request, and the HTML preview's own headers.
 */
const server = appForThisFile();
const { db, signUp, signUpAdmin, snapshot } = actorsFor(server);

type Json = Record<string, unknown>;

function api(path: string, options: { method?: string; body?: unknown; cookie?: string } = {}) {
  const headers: Record<string, string> = { Origin: server.url };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.cookie) headers.Cookie = options.cookie;
  return fetch(`${server.url}${path}`, {
    method: options.method ?? (options.body === undefined ? "GET" : "PUT"),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: "manual",
  });
}

function postForm(path: string, cookie: string, fields: Record<string, string>) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url, Cookie: cookie },
    body: new URLSearchParams(fields),
  });
}

async function refusedJson(send: () => Promise<Response>) {
  const before = snapshot();
  const response = await send();
  const body = (await response.json()) as Json;
  expect(snapshot()).toEqual(before);
  expect(typeof body.message).toBe("string");
  return { status: response.status, body };
}

let customer: Actor;
let admin: Actor;

beforeAll(async () => {
  customer = await signUp();
  admin = await signUpAdmin();
});

async function fileRequest(): Promise<number> {
  const response = await api("/api/tech-assistance", {
    method: "POST",
    cookie: customer.cookie,
    body: {
      issueType: "EQUIPMENT",
      description: "The headphone amplifier in booth two hums <loudly>.",
      preferredContactMethod: "EMAIL",
      name: "Ada Lovelace",
      email: `support-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
    },
  });
  expect(response.status).toBe(201);
  return Number(((await response.json()) as Json).id);
}

describe("PUT /api/admin/tech-assistance/:id", () => {
  it("works a request to RESOLVED and queues the customer's e-mail", async () => {
    const id = await fileRequest();
    const started = await api(`/api/admin/tech-assistance/${id}`, {
      cookie: admin.cookie,
      body: { status: "IN_PROGRESS" },
    });
    expect(started.status).toBe(200);
    expect(await started.json()).toMatchObject({ id, status: "IN_PROGRESS", resolvedAt: null });

    const missing = await refusedJson(() =>
      api(`/api/admin/tech-assistance/${id}`, {
        cookie: admin.cookie,
        body: { status: "RESOLVED", resolution: "   " },
      }),
    );
    expect(missing).toMatchObject({
      status: 400,
      body: { message: SUPPORT_UPDATE_MESSAGES.resolutionRequired },
    });

    const resolved = await api(`/api/admin/tech-assistance/${id}`, {
      cookie: admin.cookie,
      body: { status: "RESOLVED", resolution: "Replaced the amplifier." },
    });
    expect(resolved.status).toBe(200);
    const body = (await resolved.json()) as Json;
    expect(body).toMatchObject({ id, status: "RESOLVED", resolution: "Replaced the amplifier." });
    expect(Date.parse(String(body.resolvedAt))).toBeGreaterThan(Date.now() - 60_000);
    const email = server.db
      .select({ text: emailOutbox.text })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.kind, "support-resolved"), like(emailOutbox.subject, `%#${id} %`)))
      .get();
    expect(email?.text).toContain("Replaced the amplifier.");

    // Final: a second admin's late click is a conflict, and changes nothing.
    const late = await refusedJson(() =>
      api(`/api/admin/tech-assistance/${id}`, {
        cookie: admin.cookie,
        body: { status: "CANCELLED" },
      }),
    );
    expect(late).toEqual({
      status: 422,
      body: { message: `Request #${id} is already Resolved: it cannot be changed any more.` },
    });
  });

  it("of two admins starting the same request at once, one wins and the other gets 422", async () => {
    const id = await fileRequest();
    const other = await signUpAdmin();
    const answers = await Promise.all(
      [admin, other].map((who) =>
        api(`/api/admin/tech-assistance/${id}`, {
          cookie: who.cookie,
          body: { status: "IN_PROGRESS" },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    const loser = answers.find((answer) => answer.status === 422);
    expect(await loser?.json()).toEqual({
      message: `Request #${id} is In Progress: it cannot move to In Progress.`,
    });
  });

  it.each([
    [{ status: "DONE" }, 400, SUPPORT_UPDATE_MESSAGES.status],
    [{ status: "resolved", resolution: "x" }, 400, SUPPORT_UPDATE_MESSAGES.status],
    [{}, 400, SUPPORT_UPDATE_MESSAGES.status],
    [{ status: "RESOLVED" }, 400, SUPPORT_UPDATE_MESSAGES.resolutionRequired],
  ])("answers %o with %i", async (payload, status, message) => {
    const id = await fileRequest();
    const answer = await refusedJson(() =>
      api(`/api/admin/tech-assistance/${id}`, { cookie: admin.cookie, body: payload }),
    );
    expect(answer).toMatchObject({ status, body: { message } });
  });

  it("answers 422 to a skipped step and 404 to an unknown or malformed id", async () => {
    const id = await fileRequest();
    const skipped = await refusedJson(() =>
      api(`/api/admin/tech-assistance/${id}`, {
        cookie: admin.cookie,
        body: { status: "RESOLVED", resolution: "Fixed" },
      }),
    );
    expect(skipped.status).toBe(422);
    for (const bad of ["987654321", "0", "1e3", "abc"]) {
      const answer = await refusedJson(() =>
        api(`/api/admin/tech-assistance/${bad}`, {
          cookie: admin.cookie,
          body: { status: "CANCELLED" },
        }),
      );
      expect(answer.status, bad).toBe(404);
    }
  });

  it("refuses visitors (401) and customers (403), other methods 405", async () => {
    const id = await fileRequest();
    const body = { status: "CANCELLED" };
    expect(
      (await refusedJson(() => api(`/api/admin/tech-assistance/${id}`, { body }))).status,
    ).toBe(401);
    const asCustomer = await refusedJson(() =>
      api(`/api/admin/tech-assistance/${id}`, { cookie: customer.cookie, body }),
    );
    expect(asCustomer.status).toBe(403);
    for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
      const answer = await refusedJson(() =>
        api(`/api/admin/tech-assistance/${id}`, {
          method,
          cookie: admin.cookie,
          body: method === "GET" ? undefined : body,
        }),
      );
      expect(answer.status, method).toBe(405);
    }
  });
});

describe("GET /api/admin/tech-assistance", () => {
  it("lists requests newest first, filtered by status, with paging in headers", async () => {
    const older = await fileRequest();
    const newer = await fileRequest();
    await api(`/api/admin/tech-assistance/${newer}`, {
      cookie: admin.cookie,
      body: { status: "IN_PROGRESS" },
    });
    const all = await api("/api/admin/tech-assistance", { cookie: admin.cookie });
    expect(all.status).toBe(200);
    // The whole list: no page to name.
    expect(all.headers.get("X-Page")).toBeNull();
    const firstPage = await api("/api/admin/tech-assistance?page=1", { cookie: admin.cookie });
    expect(firstPage.headers.get("X-Page")).toBe("1");
    const ids = ((await all.json()) as Json[]).map((row) => row.id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));

    const inProgress = (await (
      await api("/api/admin/tech-assistance?status=IN_PROGRESS", { cookie: admin.cookie })
    ).json()) as Json[];
    expect(inProgress.map((row) => row.id)).toContain(newer);
    expect(inProgress.every((row) => row.status === "IN_PROGRESS")).toBe(true);
    expect(inProgress[0]).toMatchObject({ username: customer.username, booking: null });
  });

  it("pages 25 at a time with a Link to the next page", async () => {
    for (let i = 0; i < 26; i += 1) await fileRequest();
    const first = await api("/api/admin/tech-assistance?status=PENDING&page=1", {
      cookie: admin.cookie,
    });
    expect(((await first.json()) as Json[]).length).toBe(25);
    expect(first.headers.get("Link")).toBe(
      '</api/admin/tech-assistance?status=PENDING&page=2>; rel="next"',
    );
    const second = await api("/api/admin/tech-assistance?status=PENDING&page=2", {
      cookie: admin.cookie,
    });
    expect(((await second.json()) as Json[]).length).toBeGreaterThan(0);
  });

  it.each(["?status=DONE", "?page=0", "?page=abc", "?page=999999", "?limit=501", "?limit=0"])(
    "answers %s with 400",
    async (query) => {
      const answer = await refusedJson(() =>
        api(`/api/admin/tech-assistance${query}`, { cookie: admin.cookie }),
      );
      expect(answer.status).toBe(400);
    },
  );

  it("refuses visitors and customers", async () => {
    expect((await refusedJson(() => api("/api/admin/tech-assistance"))).status).toBe(401);
    const asCustomer = await refusedJson(() =>
      api("/api/admin/tech-assistance", { cookie: customer.cookie }),
    );
    expect(asCustomer).toEqual({ status: 403, body: { message: "Admins only" } });
  });
});

describe("the Support tab's form posts", () => {
  it("refuses Mark Resolved without details (400, nothing written), then resolves", async () => {
    const id = await fileRequest();
    const start = await postForm("/admin/support?status=PENDING", admin.cookie, {
      intent: "start",
      id: String(id),
    });
    expect(start.status).toBe(302);
    expect(start.headers.get("Location")).toBe("/admin/support?status=PENDING");

    const before = snapshot();
    const empty = await postForm("/admin/support", admin.cookie, {
      intent: "resolve",
      id: String(id),
      resolution: "  ",
    });
    expect(empty.status).toBe(400);
    const page = await empty.text();
    expect(page).toContain(SUPPORT_UPDATE_MESSAGES.resolutionRequired);
    expect(page).toContain("Error updating request");
    expect(page).toMatch(new RegExp(`aria-describedby="resolve-${id}-resolution-error"`));
    expect(snapshot()).toEqual(before);

    const resolve = await postForm("/admin/support", admin.cookie, {
      intent: "resolve",
      id: String(id),
      resolution: "Swapped the amplifier.",
    });
    expect(resolve.status).toBe(302);
    const row = server.db
      .select({
        status: technicalAssistanceRequests.status,
        resolution: technicalAssistanceRequests.resolution,
      })
      .from(technicalAssistanceRequests)
      .where(eq(technicalAssistanceRequests.id, Number(id)))
      .get();
    expect(row).toEqual({ status: "RESOLVED", resolution: "Swapped the amplifier." });

    const again = await postForm("/admin/support", admin.cookie, {
      intent: "cancel",
      id: String(id),
    });
    expect(again.status).toBe(422);
    expect(await again.text()).toContain(
      `Request #${id} is already Resolved: it cannot be changed any more.`,
    );
  });

  it("sends a customer to their dashboard, whatever they post", async () => {
    const id = await fileRequest();
    const before = snapshot();
    const answer = await postForm("/admin/support", customer.cookie, {
      intent: "cancel",
      id: String(id),
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/dashboard");
    expect(snapshot()).toEqual(before);
  });
});

describe("blocked times", () => {
  const day = () => addStudioDays(earliestBookableDate(Date.now()), 60);

  it("a block makes the slot refused by the API, and removing it frees the slot", async () => {
    const date = day();
    const check = async () => {
      const response = await fetch(
        `${server.url}/api/bookings/check-conflicts?recordingDate=${date}&recordingTime=10:00&hoursNeeded=2`,
      );
      return ((await response.json()) as { hasConflict: boolean }).hasConflict;
    };
    expect(await check()).toBe(false);
    const created = await postForm("/admin/blocked-times", admin.cookie, {
      intent: "create",
      startDate: date,
      startTime: "11:00",
      endDate: date,
      endTime: "12:00",
      reason: "Mixing desk service",
    });
    expect(created.status).toBe(302);
    expect(await check()).toBe(true);
    const refused = await api("/api/bookings", {
      method: "POST",
      cookie: customer.cookie,
      body: bookingPayload(date, "10:00", 2),
    });
    expect(refused.status).toBe(422);

    const block = server.db
      .select({ id: blockedTimes.id })
      .from(blockedTimes)
      .where(eq(blockedTimes.reason, "Mixing desk service"))
      .get();
    const removed = await postForm("/admin/blocked-times?show=upcoming", admin.cookie, {
      intent: "remove",
      id: String(block?.id),
    });
    expect(removed.status).toBe(302);
    expect(removed.headers.get("Location")).toBe("/admin/blocked-times?show=upcoming");
    expect(await check()).toBe(false);

    const twice = await postForm("/admin/blocked-times", admin.cookie, {
      intent: "remove",
      id: String(block?.id),
    });
    expect(twice.status).toBe(404);
  });

  it.each([
    [{ endTime: "09:00" }, BLOCK_MESSAGES.order],
    [{ startDate: "2020-01-01", endDate: "2020-01-01" }, BLOCK_MESSAGES.past],
    [{ reason: "" }, BLOCK_MESSAGES.reason],
    [{ startTime: "25:00" }, BLOCK_MESSAGES.startTime],
  ])("refuses %o with 400 and its message, writing nothing", async (overrides, message) => {
    const before = snapshot();
    const answer = await postForm("/admin/blocked-times", admin.cookie, {
      intent: "create",
      startDate: day(),
      startTime: "10:00",
      endDate: day(),
      endTime: "12:00",
      reason: "Holiday",
      ...overrides,
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain(message);
    expect(snapshot()).toEqual(before);
  });
});

describe("the Emails page", () => {
  let emailId: number;
  let attachmentEmailId: number;

  beforeAll(() => {
    emailId = createOutboxEmail(db(), {
      subject: "Hostile <b>subject</b>",
      html: "<html><body><script>parent.document.title='owned'</script><p>Hello</p></body></html>",
      text: "Hello in text",
      status: "FAILED",
      attempts: 10,
      lastError: "Error [ECONNREFUSED]: down",
    }).id;
    attachmentEmailId = createOutboxEmail(db(), {
      subject: "With a calendar",
      html: "<p>x</p>",
      text: "x",
      attachments: [
        {
          filename: 'session"\r\nX-Evil: 1.ics',
          contentType: "text/calendar; charset=utf-8",
          content: Buffer.from("BEGIN:VCALENDAR").toString("base64"),
        },
        {
          filename: "page.html",
          contentType: "text/html",
          content: Buffer.from("<script>").toString("base64"),
        },
      ],
    }).id;
  });

  it("serves the stored HTML under a sandboxing policy that only our pages may frame", async () => {
    const response = await fetch(`${server.url}/admin/emails/${emailId}/html`, {
      headers: { Cookie: admin.cookie },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("Content-Security-Policy")).toBe(SANDBOXED_DOCUMENT_POLICY);
    expect(response.headers.get("Content-Security-Policy")).toMatch(/^sandbox; default-src 'none'/);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("X-Frame-Options")).toBe("SAMEORIGIN");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await response.text()).toContain("<p>Hello</p>");
  });

  it("keeps every other page unframeable, the preview page included", async () => {
    const response = await fetch(`${server.url}/admin/emails/${emailId}`, {
      headers: { Cookie: admin.cookie },
    });
    expect(response.status).toBe(200);
    const policy = response.headers.get("Content-Security-Policy") ?? "";
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("frame-src 'self'");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    const page = await response.text();
    expect(page).toContain(`src="/admin/emails/${emailId}/html"`);
    expect(page).toMatch(/<iframe[^>]*sandbox=""/);
    expect(page).toContain("Hostile &lt;b&gt;subject&lt;/b&gt;");
    expect(page).toContain("Hello in text");
    expect(page).not.toContain("<script>parent");
  });

  it("downloads attachments with a safe name, and an HTML one as bytes", async () => {
    const ics = await fetch(`${server.url}/admin/emails/${attachmentEmailId}/attachments/0`, {
      headers: { Cookie: admin.cookie },
    });
    expect(ics.status).toBe(200);
    expect(ics.headers.get("Content-Type")).toMatch(/^text\/calendar/);
    expect(ics.headers.get("Content-Disposition")).toBe(
      'attachment; filename="session_X-Evil_1.ics"',
    );
    expect(ics.headers.get("X-Evil")).toBeNull();
    expect(await ics.text()).toBe("BEGIN:VCALENDAR");
    const html = await fetch(`${server.url}/admin/emails/${attachmentEmailId}/attachments/1`, {
      headers: { Cookie: admin.cookie },
    });
    expect(html.headers.get("Content-Type")).toBe("application/octet-stream");
    for (const index of ["2", "-1", "abc"]) {
      const missing = await fetch(
        `${server.url}/admin/emails/${attachmentEmailId}/attachments/${index}`,
        { headers: { Cookie: admin.cookie } },
      );
      expect(missing.status, index).toBe(404);
    }
  });

  it("lets no customer or visitor open any /admin/emails URL", async () => {
    for (const path of [
      "/admin/emails",
      `/admin/emails/${emailId}`,
      `/admin/emails/${emailId}/html`,
      `/admin/emails/${attachmentEmailId}/attachments/0`,
      `/admin/emails/${emailId}.data`,
      `/admin/emails.data?status=FAILED`,
    ]) {
      const asCustomer = await fetch(`${server.url}${path}`, {
        headers: { Cookie: customer.cookie },
        redirect: "manual",
      });
      const text = await asCustomer.text();
      expect([302, 202], path).toContain(asCustomer.status);
      expect(text, path).not.toContain("Hello");
      expect(text, path).not.toContain("VCALENDAR");
      const asVisitor = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect([302, 202], path).toContain(asVisitor.status);
      expect(await asVisitor.text(), path).not.toContain("Hello");
    }
  });

  it("retries a FAILED e-mail once, and lists by status", async () => {
    const retried = await postForm("/admin/emails?status=FAILED", admin.cookie, {
      intent: "retry",
      id: String(emailId),
    });
    expect(retried.status).toBe(302);
    expect(retried.headers.get("Location")).toBe("/admin/emails?status=FAILED");
    const row = server.db
      .select({ status: emailOutbox.status, attempts: emailOutbox.attempts })
      .from(emailOutbox)
      .where(eq(emailOutbox.id, emailId))
      .get();
    expect(row).toEqual({ status: "PENDING", attempts: 0 });
    const twice = await postForm("/admin/emails", admin.cookie, {
      intent: "retry",
      id: String(emailId),
    });
    expect(twice.status).toBe(409);

    const pending = await fetch(`${server.url}/admin/emails?status=PENDING`, {
      headers: { Cookie: admin.cookie },
    });
    expect(await pending.text()).toContain("With a calendar");
    const sent = await fetch(`${server.url}/admin/emails?status=SENT`, {
      headers: { Cookie: admin.cookie },
    });
    expect(await sent.text()).not.toContain("With a calendar");
  });
});
