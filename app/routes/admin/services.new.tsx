import { useLocation } from "react-router";
import { ServiceForm } from "#app/components/admin/service-form";
import { RouteDialog } from "#app/components/ui/route-dialog";
import { createService } from "#app/models/service.server";
import { readServiceForm, servicesListUrl } from "#app/routes/admin/services-form.server";
import { readForm } from "#app/web/form.server";
import { redirectWithSuccess } from "#app/web/toast.server";
import type { Route } from "./+types/services.new";

/** 'Add Service' (docs/product.md "Screens" and "Validation"): a new service is active. */
export async function action({ request, context }: Route.ActionArgs) {
  const read = readServiceForm(context, await readForm(request));
  if ("reply" in read) return read.reply;
  const service = createService(read.service);
  return redirectWithSuccess(servicesListUrl(request), {
    message: "Service created",
    description: `${service.name} was added`,
  });
}

const EMPTY = { name: "", description: "", price: "", duration: "" };

export default function NewService({ actionData }: Route.ComponentProps) {
  const closeTo = `/admin/services${useLocation().search}`;
  return (
    <RouteDialog title="Add Service" closeTo={closeTo}>
      <ServiceForm
        initial={EMPTY}
        reply={actionData?.result}
        submitLabel="Create Service"
        closeTo={closeTo}
      />
    </RouteDialog>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Add Service | Admin | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
