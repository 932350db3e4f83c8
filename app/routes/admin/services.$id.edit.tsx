import { data, useLocation } from "react-router";
import { ServiceForm } from "#app/components/admin/service-form";
import { RouteDialog } from "#app/components/ui/route-dialog";
import { parseId } from "#app/domain/ids";
import { getService, updateService } from "#app/models/service.server";
import { readServiceForm, servicesListUrl } from "#app/routes/admin/services-form.server";
import { readForm } from "#app/web/form.server";
import { redirectWithSuccess } from "#app/web/toast.server";
import type { Route } from "./+types/services.$id.edit";

/** Edit a service (docs/product.md "Validation": the same required fields as Add Service). */
function serviceOr404(param: string) {
  const id = parseId(param);
  const service = id === null ? undefined : getService(id);
  if (!service) throw data("Service not found", { status: 404 });
  return service;
}

export async function loader({ params }: Route.LoaderArgs) {
  const service = serviceOr404(params.id);
  return {
    service: {
      id: service.id,
      name: service.name,
      description: service.description,
      price: String(service.price),
      duration: service.duration === null ? "" : String(service.duration),
    },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const existing = serviceOr404(params.id);
  const read = readServiceForm(context, await readForm(request));
  if ("reply" in read) return read.reply;
  const service = updateService(existing.id, read.service);
  if (!service) throw data("Service not found", { status: 404 });
  return redirectWithSuccess(servicesListUrl(request), {
    message: "Service updated",
    description: `${service.name} was saved`,
  });
}

export default function EditService({ loaderData, actionData }: Route.ComponentProps) {
  const closeTo = `/admin/services${useLocation().search}`;
  const { id, ...initial } = loaderData.service;
  return (
    <RouteDialog title="Edit Service" closeTo={closeTo}>
      <ServiceForm
        key={id}
        initial={initial}
        reply={actionData?.result}
        submitLabel="Save Changes"
        closeTo={closeTo}
      />
    </RouteDialog>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Edit Service | Admin | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
