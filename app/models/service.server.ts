import { asc, eq } from "drizzle-orm";
import { services } from "../../db/schema";
import { db } from "../db.server";

export type Service = typeof services.$inferSelect;

/** Add-on services, active ones only for the booking form (spec section 7). */
export function listServices({ activeOnly }: { activeOnly: boolean }): Service[] {
  const query = db.select().from(services).orderBy(asc(services.price), asc(services.id));
  return activeOnly ? query.where(eq(services.isActive, true)).all() : query.all();
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
