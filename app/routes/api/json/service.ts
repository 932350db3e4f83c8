import type { z } from "#app/domain/zod";
import type { Service } from "#app/models/service.server";
import type * as shape from "#app/routes/api/json/shapes";

export function toServiceJson(service: Service): z.infer<typeof shape.serviceJson> {
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
