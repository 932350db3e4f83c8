import * as Headless from "@headlessui/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, data, useNavigation } from "react-router";
import { AdminPage, EmptyList } from "#app/components/admin/admin-page";
import { ConfirmDisclosure } from "#app/components/admin/confirm-disclosure";
import { cellClass, HeaderRow, smallButton, TableRegion } from "#app/components/admin/catalog-ui";
import { Pagination } from "#app/components/admin/pagination";
import { StatusBadge } from "#app/components/dashboard/status-badge";
import { HydratedField } from "#app/components/ui/hydrated-field";
import {
  MEMBERSHIP_EMPTY_TEXTS,
  MEMBERSHIP_FILTER_LABELS,
  MEMBERSHIP_FILTERS,
  type MembershipFilter,
} from "#app/domain/membership";
import { USER_ACTION_MESSAGES, userActionSchema } from "#app/domain/user-actions";
import { listUsers, makeAdmin, setMembership } from "#app/models/admin-users.server";
import { hasTwoFactor } from "#app/models/two-factor.server";
import { disableTwoFactor } from "#app/workflows/two-factor.server";
import { getUserById } from "#app/models/user.server";
import { readPage } from "#app/models/pagination.server";
import { samePageUrl } from "#app/web/same-page.server";
import { readForm } from "#app/web/form.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import type { Route } from "./+types/users";

// User Management (docs/product.md "Screens"): who is an admin, who is a member.

/** Usernames are at most 50 characters; a longer search cannot match anything. */
const SEARCH_MAX = 50;

function readFilter(url: URL): MembershipFilter {
  const asked = url.searchParams.get("membership");
  return MEMBERSHIP_FILTERS.find((filter) => filter === asked) ?? "all";
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filter = readFilter(url);
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX);
  const users = listUsers({ filter, search, page: readPage(url) });
  const rows = users.rows.map((row) => ({ ...row, twoFactor: hasTwoFactor(row.id) }));
  return { filter, search, users: { ...users, rows } };
}

/** Make Admin and Make Member / Remove Membership; both answer the same list (PRG). */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: userActionSchema });
  const fail = (title: string, description: string, status: number) =>
    replyWithToast(
      context,
      formData,
      { error: description },
      { type: "error", message: title, description },
      { status },
    );

  if (submission.status !== "success") {
    // Which button's post was refused says whose title the toast has.
    const intent = formData.get("intent");
    if (intent === "make-admin" || intent === "reset-two-factor") {
      return fail("Error updating user", USER_ACTION_MESSAGES.user, 400);
    }
    if (intent === "membership") {
      return fail("Error updating membership", USER_ACTION_MESSAGES.membership, 400);
    }
    throw data("Unknown action", { status: 400 });
  }
  const wanted = submission.value;
  if (wanted.intent === "make-admin") {
    const user = makeAdmin(wanted.userId);
    if (!user) return fail("Error updating user", "User not found", 404);
    return redirectWithSuccess(samePageUrl(request), {
      message: "User updated",
      description: `${user.username} is now an admin`,
    });
  }
  if (wanted.intent === "reset-two-factor") return resetTwoFactor(request, wanted.userId, fail);
  const user = setMembership(wanted.userId, wanted.isMember);
  if (!user) return fail("Error updating membership", "User not found", 404);
  return redirectWithSuccess(samePageUrl(request), {
    message: "Membership updated",
    description: user.isMember
      ? `${user.username} is now a member`
      : `${user.username} is no longer a member`,
  });
}

/**
 * Staff reset a customer's two-factor sign-in (a lost phone, or codes frozen after wrong ones;
 * docs/product.md "Accounts and sign-ins"): the secret, recovery codes and the count of wrong
 * codes are gone, and the password alone signs in until it is set up again.
 */
function resetTwoFactor<Refusal>(
  request: Request,
  userId: number,
  fail: (title: string, description: string, status: number) => Refusal,
) {
  const user = getUserById(userId);
  if (!user) return fail("Error resetting two-factor", "User not found", 404);
  if (!hasTwoFactor(userId)) {
    return fail("Error resetting two-factor", USER_ACTION_MESSAGES.twoFactorOff, 409);
  }
  disableTwoFactor(userId);
  return redirectWithSuccess(samePageUrl(request), {
    message: "Two-factor sign-in reset",
    description: `${user.username} now signs in with the password alone and can set up two-factor again.`,
  });
}

export default function Users({ loaderData }: Route.ComponentProps) {
  const { filter, search, users } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <AdminPage title="User Management" description="Promote staff and manage memberships.">
      <Form method="get" className="mb-6 flex flex-wrap items-end gap-3">
        <Headless.Field>
          <Headless.Label className="field-label">Show</Headless.Label>
          <Headless.Select name="membership" defaultValue={filter} className="field-input">
            {MEMBERSHIP_FILTERS.map((value) => (
              <option key={value} value={value}>
                {MEMBERSHIP_FILTER_LABELS[value]}
              </option>
            ))}
          </Headless.Select>
        </Headless.Field>
        <Headless.Field>
          <Headless.Label className="field-label">Username contains</Headless.Label>
          <Headless.Input
            name="q"
            type="search"
            defaultValue={search}
            maxLength={SEARCH_MAX}
            className="field-input"
          />
        </Headless.Field>
        <button type="submit" className="btn-secondary min-h-11 py-2">
          Apply
        </button>
      </Form>

      {users.rows.length === 0 ? (
        <EmptyList>{MEMBERSHIP_EMPTY_TEXTS[filter]}</EmptyList>
      ) : (
        <TableRegion label="Users">
          <HeaderRow columns={["ID", "Username", "Role", "Membership", "Actions"]} />
          <tbody className="divide-y divide-line">
            {users.rows.map((user) => (
              <tr key={user.id}>
                <td className={cellClass}>{user.id}</td>
                <th scope="row" className={`${cellClass} font-semibold`}>
                  {user.username}
                </th>
                <td className={cellClass}>
                  <StatusBadge
                    tone={user.isAdmin ? "blue" : "grey"}
                    label={user.isAdmin ? "Admin" : "User"}
                  />
                </td>
                <td className={cellClass}>
                  <StatusBadge
                    tone={user.isMember ? "green" : "grey"}
                    label={user.isMember ? "Member" : "Non-Member"}
                  />
                </td>
                <td className={cellClass}>
                  <div className="flex flex-wrap gap-2">
                    <Form method="post" preventScrollReset>
                      <HydratedField />
                      <input type="hidden" name="intent" value="make-admin" />
                      <input type="hidden" name="userId" value={user.id} />
                      <button type="submit" className={smallButton} disabled={user.isAdmin || busy}>
                        Make Admin
                      </button>
                    </Form>
                    <Form method="post" preventScrollReset>
                      <HydratedField />
                      <input type="hidden" name="intent" value="membership" />
                      <input type="hidden" name="userId" value={user.id} />
                      <input
                        type="hidden"
                        name="isMember"
                        value={user.isMember ? "false" : "true"}
                      />
                      <button type="submit" className={smallButton} disabled={busy}>
                        {user.isMember ? "Remove Membership" : "Make Member"}
                      </button>
                    </Form>
                    {user.twoFactor ? (
                      <ConfirmDisclosure
                        summary="Reset two-factor"
                        summaryClassName={`${smallButton} cursor-pointer`}
                        formClassName="mt-2 max-w-xs"
                        fields={{ intent: "reset-two-factor", userId: user.id }}
                        submit={`Yes, reset two-factor for ${user.username}`}
                        submitClassName={`${smallButton} mt-2`}
                        busy={busy}
                      >
                        {user.username} will sign in with the password alone, and their recovery
                        codes stop working.
                      </ConfirmDisclosure>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </TableRegion>
      )}
      <Pagination page={users.page} hasNext={users.hasNext} label="User pages" />
    </AdminPage>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Users | Admin | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
