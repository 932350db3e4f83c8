import { writeTransaction } from "#app/db.server";
import {
  ISSUE_TYPES,
  type IssueType,
  SUPPORT_MESSAGES,
  SUPPORT_UPDATE_MESSAGES,
  type SupportRequestInput,
  type SupportUpdate,
  supportTransitionMessage,
  supportTransitionProblem,
} from "#app/domain/support";
import { Refusal } from "#app/domain/refusal";
import { supportResolvedEmail } from "#app/emails/templates.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { accountEmail } from "#app/models/user.server";
import {
  getSupportRequest,
  insertSupportRequest,
  isOwnBooking,
  type SupportRequest,
  setSupportRequestStatus,
} from "#app/models/support.server";

/**
 * Technical-support requests (docs/product.md "Data" and 4, docs/product.md "Support and chat"): a
 * customer files one, staff work it through its statuses, and resolving it e-mails the
 * customer. Each runs its check and its write in one IMMEDIATE transaction with no await inside.
 */

/**
 * Files a request for `userId`. A booking it names must be that customer's own, checked in the
 * same transaction as the insert; another customer's booking is refused exactly like one that
 * does not exist, so ids cannot be probed.
 */
export function createSupportRequest(
  userId: number,
  input: SupportRequestInput,
  now: number,
): SupportRequest {
  return writeTransaction((tx) => {
    if (input.bookingId !== undefined && !isOwnBooking(tx, input.bookingId, userId)) {
      throw new Refusal("not-own-booking", SUPPORT_MESSAGES.booking);
    }
    return insertSupportRequest(tx, userId, input, now);
  });
}

/**
 * Staff move a request (docs/product.md "States and transitions"): the check and the write in one
 * IMMEDIATE transaction, so of two admins pressing buttons on the same request at once, the second
 * sees the first's result and is refused with a message naming it. Resolving stores the resolution
 * and resolvedAt and writes the customer's e-mail in the same transaction.
 */
export function updateSupportRequest(
  id: number,
  update: SupportUpdate,
  now: number,
  appUrl: string,
): SupportRequest {
  return writeTransaction((tx) => {
    const current = getSupportRequest(tx, id);
    if (!current) throw new Refusal("not-found", `Request #${id} was not found.`);
    const problem = supportTransitionProblem(current.status, update.status, update.resolution);
    if (problem === "not-allowed") {
      throw new Refusal(
        "support-move-refused",
        supportTransitionMessage(id, current.status, update.status),
      );
    }
    if (problem === "resolution-required") {
      throw new Refusal("resolution-required", SUPPORT_UPDATE_MESSAGES.resolutionRequired);
    }
    const updated = setSupportRequestStatus(tx, current, update, now);
    if (!updated) throw new Error(`Request ${id} changed inside its own transaction`);
    if (update.status === "RESOLVED" && updated.resolution) {
      enqueueEmail(tx, {
        kind: "support-resolved",
        to: accountEmail(tx, updated.userId),
        ...supportResolvedEmail({
          request: {
            id: updated.id,
            name: updated.name,
            issueLabel: ISSUE_TYPES[updated.issueType as IssueType] ?? updated.issueType,
            description: updated.description,
            resolution: updated.resolution,
          },
          dashboardUrl: `${appUrl}/dashboard?tab=support`,
        }),
        bookingId: updated.bookingId,
      });
    }
    return updated;
  });
}
