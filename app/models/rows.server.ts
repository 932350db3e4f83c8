/**
 * The rows the models hand out, by name, for the layers above that may not import the schema
 * (routes, web, workflows' callers): the table definitions stay below the models.
 */
export type { Booking, User } from "#db/schema";
