import { blockedTimes, emailOutbox, technicalAssistanceRequests, type User } from "#db/schema";
import type { FactoryDb } from "#tests/factories/database";

type NewSupportRequest = typeof technicalAssistanceRequests.$inferInsert;
type SupportRequest = typeof technicalAssistanceRequests.$inferSelect;

export type SupportRequestInput = Partial<Omit<NewSupportRequest, "userId">> & {
  /** Who asks: name and e-mail default to theirs, as the Get help form prefills them. */
  user: { id: number } & Partial<Pick<User, "firstName" | "lastName" | "email">>;
};

/** A PENDING request for help with the studio's equipment, answered by e-mail. */
export function createSupportRequest(db: FactoryDb, input: SupportRequestInput): SupportRequest {
  const { user, ...columns } = input;
  return db
    .insert(technicalAssistanceRequests)
    .values({
      name: `${user.firstName ?? "Ada"} ${user.lastName ?? "Lovelace"}`,
      email: user.email ?? "ada@example.com",
      phoneNumber: "404-555-0100",
      issueType: "EQUIPMENT",
      description: "The microphone crackles.",
      preferredContactMethod: "EMAIL",
      ...columns,
      userId: user.id,
    })
    .returning()
    .get();
}

type NewBlockedTime = typeof blockedTimes.$inferInsert;
type BlockedTime = typeof blockedTimes.$inferSelect;

export type BlockedTimeInput = Partial<NewBlockedTime> & { startsAt: number; endsAt: number };

/** A blocked range (maintenance, a holiday); by nobody in particular unless `createdBy`. */
export function createBlockedTime(db: FactoryDb, input: BlockedTimeInput): BlockedTime {
  return db
    .insert(blockedTimes)
    .values({ reason: "Maintenance", ...input })
    .returning()
    .get();
}

type NewEmail = typeof emailOutbox.$inferInsert;
type Email = typeof emailOutbox.$inferSelect;

/** An e-mail in the outbox, PENDING (due now) unless told otherwise. */
export function createOutboxEmail(db: FactoryDb, input: Partial<NewEmail> = {}): Email {
  return db
    .insert(emailOutbox)
    .values({
      kind: "test",
      toAddress: "ada@example.com",
      subject: "A test e-mail",
      html: "<p>Hello</p>",
      text: "Hello",
      ...input,
    })
    .returning()
    .get();
}
