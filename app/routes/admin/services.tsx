import { Form, Link, Outlet, data, useLocation } from "react-router";
import { AdminPage, EmptyList } from "#app/components/admin/admin-page";
import { cellClass, HeaderRow, smallButton, TableRegion } from "#app/components/admin/catalog-ui";
import { Pagination } from "#app/components/admin/pagination";
import { StatusBadge } from "#app/components/dashboard/status-badge";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { parseId } from "#app/domain/ids";
import { formatDollars } from "#app/domain/pricing";
import { listServicesPage, setServiceActive } from "#app/models/service.server";
import { samePageUrl } from "#app/web/same-page.server";
import { readPage } from "#app/models/pagination.server";
import { readForm } from "#app/web/form.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import type { Route } from "./+types/services";

/**
 * Manage Services (docs/product.md "Screens"): the add-ons of the booking form. Add, Edit and
 * Delete are dialogs that are URLs (child routes, like the customer's session dialogs): a page of
 * their own without JavaScript, a modal over this list with it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return { services: listServicesPage(readPage(new URL(request.url))) };
}

/** Activate / Deactivate: sets the state the button showed, so a double submit is harmless. */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  if (formData.get("intent") !== "toggle") throw data("Unknown action", { status: 400 });
  const rawId = formData.get("serviceId");
  const id = parseId(typeof rawId === "string" ? rawId : undefined);
  const wanted = formData.get("isActive");
  const fail = (description: string, status: number) =>
    replyWithToast(
      context,
      formData,
      { error: description },
      { type: "error", message: "Error", description },
      { status },
    );
  if (id === null || (wanted !== "true" && wanted !== "false")) {
    return fail("Failed to update service status", 400);
  }
  const service = setServiceActive(id, wanted === "true");
  if (!service) return fail("Service not found", 404);
  return redirectWithSuccess(samePageUrl(request), {
    message: "Service status updated",
    description: `${service.name} is now ${service.isActive ? "active" : "inactive"}`,
  });
}

export default function Services({ loaderData }: Route.ComponentProps) {
  const { services } = loaderData;
  const { search } = useLocation();
  return (
    <>
      {/* First in the document: without JavaScript an open dialog is not modal, and the
          keyboard must reach it before the list it covers. */}
      <Outlet />
      <AdminPage
        title="Manage Services"
        description="Add-ons customers can choose in the booking form."
        actions={
          <Link to={`/admin/services/new${search}`} preventScrollReset className="btn-primary py-2">
            Add Service
          </Link>
        }
      >
        {services.rows.length === 0 ? (
          <EmptyList>No services found. Create your first service to get started.</EmptyList>
        ) : (
          <TableRegion label="Services">
            <HeaderRow
              columns={["Name", "Description", "Price", "Duration", "Status", "Actions"]}
            />
            <tbody className="divide-y divide-line">
              {services.rows.map((service) => (
                <tr key={service.id}>
                  <th scope="row" className={`${cellClass} font-semibold`}>
                    {service.name}
                  </th>
                  <td className={`${cellClass} max-w-xs`}>{service.description}</td>
                  <td className={cellClass}>{formatDollars(service.price)}</td>
                  <td className={cellClass}>
                    {service.duration === null ? (
                      <>
                        <span aria-hidden="true">—</span>
                        <span className="sr-only">Not set</span>
                      </>
                    ) : (
                      `${service.duration} min`
                    )}
                  </td>
                  <td className={cellClass}>
                    <StatusBadge
                      tone={service.isActive ? "green" : "grey"}
                      label={service.isActive ? "Active" : "Inactive"}
                    />
                  </td>
                  <td className={cellClass}>
                    <div className="flex flex-wrap gap-2">
                      <Link
                        to={`/admin/services/${service.id}/edit${search}`}
                        preventScrollReset
                        className={smallButton}
                        aria-label={`Edit ${service.name}`}
                      >
                        Edit
                      </Link>
                      <Form method="post" preventScrollReset>
                        <HydratedField />
                        <input type="hidden" name="intent" value="toggle" />
                        <input type="hidden" name="serviceId" value={service.id} />
                        <input
                          type="hidden"
                          name="isActive"
                          value={service.isActive ? "false" : "true"}
                        />
                        <button type="submit" className={smallButton}>
                          {service.isActive ? "Deactivate" : "Activate"}
                        </button>
                      </Form>
                      <Link
                        to={`/admin/services/${service.id}/delete${search}`}
                        preventScrollReset
                        className={smallButton}
                        aria-label={`Delete ${service.name}`}
                      >
                        Delete
                      </Link>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </TableRegion>
        )}
        <Pagination page={services.page} hasNext={services.hasNext} label="Service pages" />
      </AdminPage>
    </>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Services | Admin | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
