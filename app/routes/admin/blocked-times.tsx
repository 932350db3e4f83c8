import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { AdminPage, EmptyList } from "#app/components/admin/admin-page";
import { SelectFilter } from "#app/components/admin/filter-form";
import { ColumnHeads, TableRegion, TD } from "#app/components/admin/table";
import { Pagination } from "#app/components/admin/pagination";
import { Field } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { type FormReply, useSchemaForm } from "#app/components/ui/use-schema-form";
import { DatabaseBusyError, writeTransaction } from "#app/db.server";
import {
  BLOCK_LIMITS,
  type BlockList,
  blockedTimeSchema,
  blockListParam,
} from "#app/domain/blocked-times";
import { formatStudioInstant } from "#app/domain/booking-display";
import { STATUS_LABELS } from "#app/domain/booking-status";
import { parseId } from "#app/domain/ids";
import { keepAsTyped } from "#app/domain/zod";
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
import { offerFreedRangesNow } from "#app/workflows/waitlist.server";

/** Built once; the "already over" rule reads the clock at each check, the server's too. */
const createSchema = blockedTimeSchema(Date.now);

/**
 * Blocked times (docs/product.md "Blocked times": staff block ranges for
 * maintenance or holidays; a blocked range conflicts like a booking). A block may cover booked
 * sessions: staff may have to close the studio anyway, so it is saved, and the sessions it
 * covers are named in the toast's count and listed beside the block to contact those customers.
 */
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
  const now = Date.now();
  // Every refusal gives the create form back as it was typed; only its own refusal marks
  // its fields.
  const fail = (
    message: string,
    description: string,
    status: number,
    result = parseWithZod(formData, { schema: keepAsTyped }).reply(),
  ) =>
    replyWithToast(
      context,
      formData,
      { result },
      { type: "error", message, description },
      { status },
    );

  try {
    if (intent === "create") {
      const submission = parseWithZod(formData, { schema: blockedTimeSchema(now) });
      if (submission.status !== "success") {
        return fail(
          "Time not blocked",
          "Please check the highlighted fields.",
          400,
          submission.reply(),
        );
      }
      const { block, overlapping } = writeTransaction((tx) =>
        createBlockedTime(tx, submission.value, admin.id, now),
      );
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
      if (id === null || !writeTransaction((tx) => removeBlockedTime(tx, id))) {
        return fail("Error removing blocked time", "This blocked time was already removed.", 404);
      }
      // The freed times go to the waitlist now (docs/product.md "Waitlist").
      offerFreedRangesNow(Date.now());
      return redirectWithSuccess(back, {
        message: "Blocked time removed",
        description: "Those times can be booked again.",
      });
    }
    return fail("Error", "Please use the form's buttons.", 400);
  } catch (error) {
    if (error instanceof DatabaseBusyError) {
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
      <CreateForm reply={actionData?.result} />
      <h3 className="mt-10 font-display text-xl font-bold">
        {list === "upcoming" ? "Upcoming blocks" : "Past blocks"}
      </h3>
      <div className="mt-4">
        <SelectFilter
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
              <ColumnHeads
                columns={["Starts", "Ends", "Reason", "Booked sessions in it", "Actions"]}
                className="bg-paper"
              />
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

/** The create form: the server answers every submit, as its refusal comes with a toast. */
function CreateForm({ reply }: { reply: FormReply }) {
  const [form, fields] = useSchemaForm({
    id: "block",
    schema: createSchema,
    lastResult: reply,
    submitCheckedBy: "server",
  });
  return (
    <section aria-labelledby="block-form-title">
      <h3 id="block-form-title" className="font-display text-xl font-bold">
        Block a time range
      </h3>
      <p className="mt-1 text-ink-soft">Dates and times are Atlanta time.</p>
      <Form method="post" preventScrollReset {...getFormProps(form)} className="mt-4 space-y-4">
        <HydratedField />
        <div className="grid gap-4 sm:grid-cols-2 md:grid-cols-4">
          <Field label="Start date" meta={fields.startDate} type="date" />
          <Field label="Start time" meta={fields.startTime} type="time" />
          <Field label="End date" meta={fields.endDate} type="date" />
          <Field label="End time" meta={fields.endTime} type="time" />
        </div>
        <Field label="Reason" meta={fields.reason} type="text" maxLength={BLOCK_LIMITS.reasonMax} />
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
