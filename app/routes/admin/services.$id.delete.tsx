import { data, Form, Link, useLocation, useNavigation } from "react-router";
import { RouteDialog } from "#app/components/ui/route-dialog";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { writeTransaction } from "#app/db.server";
import { parseId } from "#app/domain/ids";
import { Refusal } from "#app/domain/refusal";
import { SERVICE_MESSAGES } from "#app/domain/services";
import { deleteService, getService } from "#app/models/service.server";
import { servicesListUrl } from "#app/routes/admin/services-form.server";
import { readForm } from "#app/web/form.server";
import { formRefusal } from "#app/web/refusals.server";
import { redirectWithSuccess } from "#app/web/toast.server";
import type { Route } from "./+types/services.$id.delete";

/**
 * Delete a service (docs/product.md "States and transitions"): one that any booking used is
 * deactivated instead, so that booking keeps its add-on; the toast says which of the two happened.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const service = id === null ? undefined : getService(id);
  if (!service) throw data("Service not found", { status: 404 });
  return { service: { id: service.id, name: service.name } };
}

export async function action({ request, params }: Route.ActionArgs) {
  // Read (and so check) the body like every other action, though this one carries no fields.
  await readForm(request);
  const id = parseId(params.id);
  if (id === null) throw data(SERVICE_MESSAGES.notFound, { status: 404 });
  const removal = removeService(id);
  const back = servicesListUrl(request);
  return removal.removed === "deleted"
    ? redirectWithSuccess(back, {
        message: "Service deleted",
        description: `${removal.service.name} was deleted`,
      })
    : redirectWithSuccess(back, {
        message: "Service deactivated",
        description: `${removal.service.name} is part of existing bookings, so it was deactivated instead of deleted`,
      });
}

function removeService(id: number) {
  try {
    return writeTransaction((tx) => deleteService(tx, id));
  } catch (error) {
    if (error instanceof Refusal) throw data(error.message, formRefusal(error).init);
    throw error;
  }
}

export default function DeleteService({ loaderData }: Route.ComponentProps) {
  const { service } = loaderData;
  const closeTo = `/admin/services${useLocation().search}`;
  const busy = useNavigation().state === "submitting";
  return (
    <RouteDialog title="Delete Service" closeTo={closeTo}>
      <p>
        Delete <strong>{service.name}</strong>? If any booking includes it, it is deactivated
        instead, so those bookings keep their details.
      </p>
      <Form
        method="post"
        preventScrollReset
        className="mt-6 flex flex-col gap-3 sm:flex-row-reverse"
      >
        <HydratedField />
        <button type="submit" className="btn-primary sm:flex-1" disabled={busy}>
          Delete
        </button>
        <Link to={closeTo} preventScrollReset className="btn-secondary text-ink sm:flex-1">
          Cancel
        </Link>
      </Form>
    </RouteDialog>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Delete Service | Admin | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
