import { readPeriod } from "#app/domain/sales-period";
import { jsonError, methodNotAllowed } from "#app/web/api.server";
import { periodError, salesCsv } from "#app/routes/admin/sales.server";
import { requireAdmin } from "#app/web/user-context.server";
import type { Route } from "./+types/sales.export";

/**
 * GET /admin/sales/export?period=...: the period's payments and refunds as a CSV file, newest
 * first (docs/product.md "Sales figures": a CSV export). Linked from the Sales tab, so it answers
 * like the admin pages: a visitor is sent to sign in, a customer to their dashboard. A period
 * that cannot be read is a 400 with a JSON message, like the app's other file downloads.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const reading = readPeriod(new URL(request.url).searchParams);
  if (!reading.ok) {
    const { message, errors } = periodError(reading);
    return jsonError(400, message, { errors });
  }
  const { body, filename } = salesCsv(reading.choice, Date.now());
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

export function action() {
  return methodNotAllowed("GET");
}
