import { asc, eq } from "drizzle-orm";
import { services } from "../../db/schema";
import { db } from "../db.server";

export type Service = typeof services.$inferSelect;

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

/** Add-on services, active ones only for the booking form (spec section 7). */
export function listServices({ activeOnly }: { activeOnly: boolean }): Service[] {
  return activeOnly ? activeServices.all() : allServices.all();
}

export function toServiceJson(service: Service) {
  return {
    id: service.id,
    name: service.name,
    description: service.description,
    price: service.price,
    duration: service.duration,
    isActive: service.isActive,
    createdAt: new Date(service.createdAt).toISOString(),
  };
}
