import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { bookingServices, services } from "#db/schema";
import { db, type Tx, unlessBusy } from "#app/db.server";
import { Refusal } from "#app/domain/refusal";
import { SERVICE_MESSAGES, type ServiceInput } from "#app/domain/services";
import { type Page, pageWindow, toPage } from "#app/models/pagination.server";

export type Service = typeof services.$inferSelect;
type Reader = Pick<typeof db, "select">;

// The booking form asks for these on every load: prepared once, not rebuilt per request.
const allServices = db
  .select()
  .from(services)
  .orderBy(asc(services.price), asc(services.id))
  .prepare();
const activeServices = db
  .select()
  .from(services)
  .where(eq(services.isActive, true))
  .orderBy(asc(services.price), asc(services.id))
  .prepare();

/** Add-on services, active ones only for the booking form (docs/product.md "The JSON API"). */
export function listServices({ activeOnly }: { activeOnly: boolean }): Service[] {
  return activeOnly ? activeServices.all() : allServices.all();
}

/** The services of `ids` that are still offered (fewer rows than ids: one is not). */
export function getActiveServices(reader: Reader, ids: readonly number[]): Service[] {
  if (ids.length === 0) return [];
  return reader
    .select()
    .from(services)
    .where(and(inArray(services.id, [...ids]), eq(services.isActive, true)))
    .all();
}

// ---------------------------------------------------------------- the Services tab (admin)

export function getService(id: number): Service | undefined {
  return db.select().from(services).where(eq(services.id, id)).get();
}

/** The admin's list, newest first, one page plus one row (no count of the whole table). */
export function listServicesPage(page: number): Page<Service> {
  const { limit, offset } = pageWindow(page);
  const rows = db
    .select()
    .from(services)
    .orderBy(desc(services.id))
    .limit(limit)
    .offset(offset)
    .all();
  return toPage(rows, page);
}

/** 'Add Service': new services are active unless the JSON client says otherwise. */
export function createService(input: ServiceInput, isActive = true): Service {
  return unlessBusy(() =>
    db
      .insert(services)
      .values({ ...input, isActive })
      .returning()
      .get(),
  );
}

/**
 * Edit. A booking keeps the price it was made at (booking_services.price_at_booking), so a new
 * price only reaches later bookings. Undefined when no such service exists.
 */
export function updateService(
  id: number,
  input: ServiceInput,
  isActive?: boolean,
): Service | undefined {
  return unlessBusy(() =>
    db
      .update(services)
      .set({ ...input, ...(isActive === undefined ? {} : { isActive }) })
      .where(eq(services.id, id))
      .returning()
      .get(),
  );
}

export function setServiceActive(id: number, isActive: boolean): Service | undefined {
  return unlessBusy(() =>
    db.update(services).set({ isActive }).where(eq(services.id, id)).returning().get(),
  );
}

export type ServiceRemoval = { ok: true; removed: "deleted" | "deactivated"; service: Service };

/**
 * Delete (docs/product.md "States and transitions"): a service any booking used is deactivated
 * instead, so that booking's add-ons stay readable. One IMMEDIATE transaction: a booking made with
 * this service between the check and the delete cannot slip in (and the foreign key would refuse
 * the delete anyway).
 */
export function deleteService(tx: Tx, id: number): ServiceRemoval {
  const service = tx.select().from(services).where(eq(services.id, id)).get();
  if (!service) throw new Refusal("not-found", SERVICE_MESSAGES.notFound);
  const used = tx
    .select({ id: bookingServices.id })
    .from(bookingServices)
    .where(eq(bookingServices.serviceId, id))
    .limit(1)
    .get();
  if (used) {
    const deactivated = tx
      .update(services)
      .set({ isActive: false })
      .where(eq(services.id, id))
      .returning()
      .get();
    return { ok: true, removed: "deactivated", service: deactivated ?? service };
  }
  tx.delete(services).where(eq(services.id, id)).run();
  return { ok: true, removed: "deleted", service };
}
