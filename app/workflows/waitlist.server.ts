import { DatabaseBusyError, writeTransaction } from "#app/db.server";
import { env } from "#app/env.server";
import { BOOKING_LIMITS, busyWindowFor, startProblem } from "#app/domain/availability";
import { horizonProblem, tooManyUnpaidSessions } from "#app/domain/booking-limits";
import { studioDateOf, studioSession } from "#app/domain/studio-time";
import { joinRefusal, WAITLIST_MESSAGES } from "#app/domain/waitlist";
import { Refusal } from "#app/domain/refusal";
import { waitlistOfferEmail } from "#app/emails/templates.server";
import {
  countUnpaidSessions,
  ownBookingOverlaps,
  readBusyRanges,
  type Tx,
} from "#app/models/booking.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { accountEmail, getUserById } from "#app/models/user.server";
import {
  claimPath,
  countLiveOffers,
  hasOpenEntries,
  insertWaitlistEntry,
  lapseDueEntries,
  markOffered,
  markRemoved,
  openEntriesOf,
  type WaitlistEntry,
  waitingEntries,
} from "#app/models/waitlist.server";
import { logError, logEvent } from "#app/log.server";

/** docs/product.md "Waitlist": each read-check-write is one IMMEDIATE transaction, like booking. */

export type WaitlistSettings = {
  holdMinutes: number;
  bufferMinutes: number;
  appUrl: string;
  maxWaitlist: number;
  /** BOOKING_HORIZON_DAYS; absent, a test's settings leave the horizon off. */
  horizonDays?: number;
  /** MAX_UNPAID_SESSIONS, which an offer counts towards; absent, a test's settings leave it off. */
  maxUnpaidSessions?: number;
};

export function configuredWaitlistSettings(): WaitlistSettings {
  return {
    holdMinutes: env.HOLD_MINUTES,
    bufferMinutes: env.BUFFER_MINUTES,
    appUrl: env.APP_URL,
    maxWaitlist: env.MAX_WAITLIST,
    horizonDays: env.BOOKING_HORIZON_DAYS,
    maxUnpaidSessions: env.MAX_UNPAID_SESSIONS,
  };
}

const HOUR_MS = 3_600_000;

function earliestBookableStart(now: number): number {
  return now + BOOKING_LIMITS.advanceNoticeHours * HOUR_MS;
}

export function joinWaitlist(
  userId: number,
  range: { recordingDate: string; recordingTime: string; hoursNeeded: number },
  now: number,
  settings: WaitlistSettings = configuredWaitlistSettings(),
): WaitlistEntry {
  const slot = studioSession(range.recordingDate, range.recordingTime, range.hoursNeeded);
  const entry = writeTransaction((tx) => {
    if (settings.horizonDays !== undefined) {
      const tooFar = horizonProblem(range.recordingDate, studioDateOf(now), settings.horizonDays);
      if (tooFar) throw new Refusal("horizon", tooFar);
    }
    const busy = readBusyRanges(busyWindowFor(range.recordingDate, settings.bufferMinutes), now);
    const open = openEntriesOf(userId);
    const refusal = joinRefusal({
      startProblem: startProblem({
        date: range.recordingDate,
        time: range.recordingTime,
        hours: range.hoursNeeded,
        busy,
        now,
        bufferMinutes: settings.bufferMinutes,
      }),
      ownBooking: ownBookingOverlaps(tx, userId, slot, now),
      duplicate: open.some(
        (entry) => entry.startsAt === slot.startsAt && entry.endsAt === slot.endsAt,
      ),
      openEntries: open.length,
      max: settings.maxWaitlist,
    });
    if (refusal) throw new Refusal(refusal.kind, refusal.message);
    return insertWaitlistEntry(tx, {
      userId,
      recordingDate: range.recordingDate,
      recordingTime: range.recordingTime,
      hoursNeeded: range.hoursNeeded,
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
      status: "WAITING",
      createdAt: now,
    });
  });
  logEvent("waitlist joined", { entryId: entry.id });
  return entry;
}

/** A removed offer's range passes to the next one waiting in the same transaction. */
export function removeWaitlistEntry(
  userId: number,
  entryId: number,
  now: number,
  settings: WaitlistSettings = configuredWaitlistSettings(),
): WaitlistEntry {
  const removed = writeTransaction((tx) => {
    const entry = markRemoved(tx, entryId, userId, now);
    if (!entry) throw new Refusal("not-found", WAITLIST_MESSAGES.notFound);
    if (entry.offerExpiresAt !== null) offerFreedRanges(tx, now, settings);
    return entry;
  });
  logEvent("waitlist removed", { entryId });
  return removed;
}

/**
 * The one place offers are made (docs/product.md "Waitlist"). An offer is busy for every later
 * entry, so one range is offered once; whatever freed a range, the next run (every minute) finds it.
 */
export function offerFreedRanges(
  tx: Tx,
  now: number,
  settings: WaitlistSettings = configuredWaitlistSettings(),
): number {
  lapseDueEntries(tx, now, earliestBookableStart(now));
  let offered = 0;
  for (const entry of waitingEntries(tx)) {
    const busy = readBusyRanges(busyWindowFor(entry.recordingDate, settings.bufferMinutes), now);
    const problem = startProblem({
      date: entry.recordingDate,
      time: entry.recordingTime,
      hours: entry.hoursNeeded,
      busy,
      now,
      bufferMinutes: settings.bufferMinutes,
    });
    if (problem !== null) continue;
    if (atSessionCap(tx, entry.userId, now, settings)) continue;
    const expiresAt = now + settings.holdMinutes * 60_000;
    const offer = markOffered(tx, entry.id, now, expiresAt);
    if (!offer) continue;
    const user = getUserById(offer.userId);
    enqueueEmail(tx, {
      kind: "waitlist-offer",
      to: accountEmail(tx, offer.userId),
      ...waitlistOfferEmail({
        firstName: user?.firstName ?? "there",
        range: offer,
        claimUrl: `${settings.appUrl}${claimPath(offer.id)}`,
        expiresAt,
      }),
    });
    offered += 1;
    logEvent("waitlist offered", { entryId: offer.id });
  }
  return offered;
}

/**
 * Whether the customer's unpaid sessions and live offers (read in the offers' transaction,
 * counting the ones made earlier in this run) leave no room for one more offer.
 */
function atSessionCap(tx: Tx, userId: number, now: number, settings: WaitlistSettings): boolean {
  if (settings.maxUnpaidSessions === undefined) return false;
  const held = {
    unpaidSessions: countUnpaidSessions(tx, userId, now),
    liveOffers: countLiveOffers(tx, userId, now),
    adding: 1,
  };
  return tooManyUnpaidSessions(held, settings.maxUnpaidSessions);
}

/** The change itself is done: a failure is logged and the background loop offers a minute later. */
export function offerFreedRangesNow(
  now: number,
  settings: WaitlistSettings = configuredWaitlistSettings(),
): number {
  try {
    // A read says there is nothing to do without taking the write lock (as expireHolds does).
    if (!hasOpenEntries()) return 0;
    return writeTransaction((tx) => offerFreedRanges(tx, now, settings));
  } catch (error) {
    if (error instanceof DatabaseBusyError) {
      logEvent("database busy, waitlist offers left to the next sweep", {}, "warn");
    } else {
      logError("waitlist-offers", error);
    }
    return 0;
  }
}
