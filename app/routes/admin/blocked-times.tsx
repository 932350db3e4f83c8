import { Form, Link } from "react-router";
import { AdminPage, EmptyList } from "#app/components/admin/admin-page";
import { SelectFilter, TableRegion, TD, TH } from "#app/components/admin/filter-form";
import { Pagination } from "#app/components/admin/pagination";
import { ErrorList } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { isDatabaseBusyResponse } from "#app/db.server";
import {
  BLOCK_LIMITS,
  type BlockList,
  blockedTimeSchema,
  blockListParam,
} from "#app/domain/blocked-times";
import { formatStudioInstant } from "#app/domain/booking-display";
import { STATUS_LABELS } from "#app/domain/booking-status";
import { parseId } from "#app/domain/ids";
import {
  createBlockedTime,
  listBlockedTimesPage,
  removeBlockedTime,
} from "#app/models/blocked-time.server";
import { readPage } from "#app/models/pagination.server";
import { samePageUrl } from "#app/web/same-page.server";
import { currentAdmin } from "#app/web/user-context.server";
import { readForm } from "#app/web/form.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import type { Route } from "./+types/blocked-times";

/**
 * Blocked times (product-decisions "Availability and holds": staff block ranges for
 * maintenance or holidays; a blocked range conflicts like a booking). A block may cover booked
 * sessions: staff may have to close the studio anyway, so it is saved, and the sessions it
 * covers are named in the toast's count and listed beside the block to contact those customers.
 */
const FIELDS = ["startDate", "startTime", "endDate", "endTime", "reason"] as const;
type Field = (typeof FIELDS)[number];
type Reply = { values: Partial<Record<Field, string>>; errors: Partial<Record<Field, string[]>> };

const when = (epochMs: number) => formatStudioInstant(epochMs, "MMMM d, yyyy h:mm a");

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const list = blockListParam(url.searchParams.get("show"));
  const now = Date.now();
  const page = listBlockedTimesPage(list, readPage(url), now);
  return {
    list,
    page: page.page,
    hasNext: page.hasNext,
    blocks: page.rows.map((block) => ({
      id: block.id,
      starts: when(block.startsAt),
      ends: when(block.endsAt),
      reason: block.reason,
      overlapping: block.overlapping.map((session) => ({
        id: session.id,
        name: `${session.firstName} ${session.lastName}`,
        when: when(session.startsAt),
        status: STATUS_LABELS[session.status],
        phoneNumber: session.phoneNumber,
        email: session.email,
      })),
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = currentAdmin(context);
  const formData = await readForm(request);
  const back = samePageUrl(request);
  const intent = formData.get("intent");
  const values: Reply["values"] = {};
  for (const field of FIELDS) {
    const value = formData.get(field);
    if (typeof value === "string") values[field] = value.slice(0, 1000);
  }
  const fail = (
    message: string,
    description: string,
    status: number,
    errors: Reply["errors"] = {},
  ) =>
    replyWithToast(
      context,
      formData,
      { values, errors } satisfies Reply,
      { type: "error", message, description },
      { status },
    );

  try {
    if (intent === "create") {
      const now = Date.now();
      const parsed = blockedTimeSchema(now).safeParse(values);
      if (!parsed.success) {
        const errors: Reply["errors"] = {};
        for (const issue of parsed.error.issues) {
          const field = issue.path[0] as Field;
          errors[field] = [...(errors[field] ?? []), issue.message];
        }
        return fail("Time not blocked", "Please check the highlighted fields.", 400, errors);
      }
      const { block, overlapping } = createBlockedTime(parsed.data, admin.id, now);
      const range = `${when(block.startsAt)} to ${when(block.endsAt)}`;
      return redirectWithSuccess(back, {
        message: "Time blocked",
        description:
          overlapping.length === 0
            ? `${range} is blocked. No booked session overlaps it.`
            : `${range} is blocked. ${overlapping.length} booked ${overlapping.length === 1 ? "session overlaps" : "sessions overlap"} it: please contact ${overlapping.length === 1 ? "that customer" : "those customers"} (listed with the block).`,
      });
    }
    if (intent === "remove") {
      const raw = formData.get("id");
      const id = parseId(typeof raw === "string" ? raw : undefined);
      if (id === null || !removeBlockedTime(id)) {
        return fail("Error removing blocked time", "This blocked time was already removed.", 404);
      }
      return redirectWithSuccess(back, {
        message: "Blocked time removed",
        description: "Those times can be booked again.",
      });
    }
    return fail("Error", "Please use the form's buttons.", 400);
  } catch (error) {
    if (isDatabaseBusyResponse(error)) {
      return fail("Error", "The system is busy right now. Please try again.", 503);
    }
    throw error;
  }
}

export default function BlockedTimes({ loaderData, actionData }: Route.ComponentProps) {
  const { blocks, list, page, hasNext } = loaderData;
  return (
    <AdminPage
      title="Blocked Times"
      description="Close the studio for a range of Atlanta time (maintenance, holidays). Nobody can book a session that touches a blocked range."
    >
      <CreateForm reply={actionData as Reply | undefined} />
      <h3 className="mt-10 font-display text-xl font-bold">
        {list === "upcoming" ? "Upcoming blocks" : "Past blocks"}
      </h3>
      <div className="mt-4">
        <SelectFilter
          id="blocked-show"
          name="show"
          label="Show"
          value={list}
          options={[
            { value: "upcoming", label: "Upcoming" },
            { value: "past", label: "Past" },
          ]}
        />
      </div>
      <div className="mt-6">
        {blocks.length === 0 ? (
          <EmptyList>{emptyText(list)}</EmptyList>
        ) : (
          <TableRegion label="Blocked times">
            <table className="w-full min-w-[48rem] divide-y divide-line">
              <thead className="bg-paper">
                <tr>
                  <th scope="col" className={TH}>
                    Starts
                  </th>
                  <th scope="col" className={TH}>
                    Ends
                  </th>
                  <th scope="col" className={TH}>
                    Reason
                  </th>
                  <th scope="col" className={TH}>
                    Booked sessions in it
                  </th>
                  <th scope="col" className={TH}>
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {blocks.map((block) => (
                  <tr key={block.id} id={`block-${block.id}`}>
                    <td className={`${TD} whitespace-nowrap`}>{block.starts}</td>
                    <td className={`${TD} whitespace-nowrap`}>{block.ends}</td>
                    <td className={`${TD} max-w-xs break-words`}>{block.reason}</td>
                    <td className={TD}>
                      {block.overlapping.length === 0 ? (
                        <span className="text-ink-soft">None</span>
                      ) : (
                        <ul className="space-y-2">
                          {block.overlapping.map((session) => (
                            <li key={session.id}>
                              <Link
                                to={`/admin/bookings/${session.id}`}
                                className="font-semibold underline"
                              >
                                Booking #{session.id}
                              </Link>{" "}
                              {session.name}, {session.when} ({session.status})
                              <br />
                              {session.phoneNumber} ·{" "}
                              <a href={`mailto:${session.email}`} className="underline">
                                {session.email}
                              </a>
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td className={TD}>
                      <Form method="post" preventScrollReset>
                        <HydratedField />
                        <input type="hidden" name="id" value={block.id} />
                        <button
                          type="submit"
                          name="intent"
                          value="remove"
                          aria-label={`Remove the block from ${block.starts}`}
                          className="btn-secondary py-2 text-ink"
                        >
                          Remove
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
        <Pagination page={page} hasNext={hasNext} label="Blocked time pages" />
      </div>
    </AdminPage>
  );
}

function emptyText(list: BlockList) {
  return list === "upcoming" ? "No upcoming blocked times" : "No past blocked times";
}

const INPUTS: { name: Field; label: string; type: "date" | "time" }[] = [
  { name: "startDate", label: "Start date", type: "date" },
  { name: "startTime", label: "Start time", type: "time" },
  { name: "endDate", label: "End date", type: "date" },
  { name: "endTime", label: "End time", type: "time" },
];

function CreateForm({ reply }: { reply: Reply | undefined }) {
  const errorsOf = (field: Field) => reply?.errors[field];
  const described = (field: Field) =>
    errorsOf(field)?.length
      ? { "aria-invalid": true, "aria-describedby": `block-${field}-error` }
      : {};
  return (
    <section aria-labelledby="block-form-title">
      <h3 id="block-form-title" className="font-display text-xl font-bold">
        Block a time range
      </h3>
      <p className="mt-1 text-ink-soft">Dates and times are Atlanta time.</p>
      <Form method="post" preventScrollReset className="mt-4 space-y-4">
        <HydratedField />
        <div className="grid gap-4 sm:grid-cols-2 md:grid-cols-4">
          {INPUTS.map((input) => (
            <div key={input.name}>
              <label htmlFor={`block-${input.name}`} className="field-label">
                {input.label}
              </label>
              <input
                id={`block-${input.name}`}
                name={input.name}
                type={input.type}
                required
                defaultValue={reply?.values[input.name] ?? ""}
                className="field-input"
                {...described(input.name)}
              />
              <ErrorList id={`block-${input.name}-error`} errors={errorsOf(input.name)} />
            </div>
          ))}
        </div>
        <div>
          <label htmlFor="block-reason" className="field-label">
            Reason
          </label>
          <input
            id="block-reason"
            name="reason"
            type="text"
            required
            maxLength={BLOCK_LIMITS.reasonMax}
            defaultValue={reply?.values.reason ?? ""}
            className="field-input"
            {...described("reason")}
          />
          <ErrorList id="block-reason-error" errors={errorsOf("reason")} />
        </div>
        <button type="submit" name="intent" value="create" className="btn-primary">
          Block this time
        </button>
      </Form>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Blocked times | Admin Dashboard | ATL Creator Studio" },
];
