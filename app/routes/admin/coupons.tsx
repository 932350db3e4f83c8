import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, data, useNavigation } from "react-router";
import { AdminPage, EmptyList } from "#app/components/admin/admin-page";
import { cellClass, HeaderRow, smallButton, TableRegion } from "#app/components/admin/catalog-ui";
import { Pagination } from "#app/components/admin/pagination";
import { StatusBadge } from "#app/components/dashboard/status-badge";
import { Field, SelectField } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { type FormReply, useSchemaForm } from "#app/components/ui/use-schema-form";
import {
  couponFormSchema,
  couponRefusal,
  formatCouponDiscount,
  formatExpiry,
} from "#app/domain/coupons";
import { COUPON_TYPE_LABELS, COUPON_TYPES } from "#app/domain/coupon-type";
import { parseId } from "#app/domain/ids";
import { studioDateOf } from "#app/domain/studio-time";
import { createCoupon, listCoupons, setCouponActive } from "#app/models/coupon.server";
import { samePageUrl } from "#app/web/same-page.server";
import { readPage } from "#app/models/pagination.server";
import { readForm } from "#app/web/form.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import { Refusal } from "#app/domain/refusal";
import { formRefusal } from "#app/web/refusals.server";
import type { Route } from "./+types/coupons";

/**
 * Coupon Management (docs/product.md "Screens", "States and transitions", "Validation" and
 * "Messages"): the create form and the coupons.
 */

export async function loader({ request }: Route.LoaderArgs) {
  const page = listCoupons(Date.now(), readPage(new URL(request.url)));
  const today = studioDateOf(Date.now());
  return {
    coupons: {
      ...page,
      rows: page.rows.map((coupon) => ({
        id: coupon.id,
        code: coupon.code,
        discount: formatCouponDiscount(coupon.type, coupon.value),
        currentUses: coupon.currentUses,
        maxUses: coupon.maxUses,
        expires: formatExpiry(coupon.expiryDate),
        isActive: coupon.isActive,
        expired: coupon.expiryDate < today,
      })),
    },
  };
}

const text = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
};

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const toast = <T,>(
    payload: T,
    message: Parameters<typeof replyWithToast>[3],
    init: ResponseInit,
  ) => replyWithToast(context, formData, payload, message, init);

  if (intent === "create") {
    const submission = parseWithZod(formData, { schema: couponFormSchema });
    if (submission.status !== "success") {
      const refusal = couponRefusal(submission.error);
      return toast(
        { intent: "create" as const, result: submission.reply() },
        { type: "error", message: refusal.title, description: refusal.description },
        { status: 400 },
      );
    }
    try {
      const coupon = createCoupon(submission.value, Date.now());
      return redirectWithSuccess(samePageUrl(request), {
        message: "Coupon created",
        description: `Coupon ${coupon.code} was created successfully`,
      });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      const { toast: refused, init, field = "code" } = formRefusal(error);
      return toast(
        {
          intent: "create" as const,
          result: submission.reply({ fieldErrors: { [field]: [error.message] } }),
        },
        refused,
        init,
      );
    }
  }

  if (intent === "deactivate" || intent === "activate") {
    const title = intent === "activate" ? "Error activating coupon" : "Error deactivating coupon";
    const couponId = parseId(text(formData, "couponId"));
    const coupon = couponId === null ? undefined : setCouponActive(couponId, intent === "activate");
    if (!coupon) {
      return toast(
        { intent, error: "Coupon not found" } as const,
        { type: "error", message: title, description: "Coupon not found" },
        { status: 404 },
      );
    }
    return redirectWithSuccess(samePageUrl(request), {
      message: intent === "activate" ? "Coupon activated" : "Coupon deactivated",
      description:
        intent === "activate"
          ? `Coupon ${coupon.code} is active again`
          : `Coupon ${coupon.code} can no longer be used`,
    });
  }
  throw data("Unknown action", { status: 400 });
}

export default function Coupons({ loaderData, actionData }: Route.ComponentProps) {
  const { coupons } = loaderData;
  return (
    <AdminPage title="Coupon Management" description="Create discount codes for the booking form.">
      {/* Coupons are listed newest first: a coupon created (from any page) changes the first
          row, which starts the form afresh, as docs/product.md "Coupons tab" has the form empty after Create. */}
      <CreateCouponForm
        key={coupons.rows[0]?.id ?? 0}
        reply={actionData?.intent === "create" ? actionData.result : undefined}
      />
      <h3 className="mt-10 mb-4 font-display text-xl font-bold">Coupons</h3>
      {coupons.rows.length === 0 ? (
        <EmptyList>No coupons found</EmptyList>
      ) : (
        <TableRegion label="Coupons">
          <HeaderRow
            columns={["Code", "Discount", "Usage / Limit", "Expires", "Status", "Actions"]}
          />
          <tbody className="divide-y divide-line">
            {coupons.rows.map((coupon) => (
              <tr key={coupon.id}>
                <th scope="row" className={`${cellClass} font-mono font-semibold`}>
                  {coupon.code}
                </th>
                <td className={cellClass}>{coupon.discount}</td>
                <td className={cellClass}>
                  {coupon.currentUses} /{" "}
                  {coupon.maxUses === 0 ? (
                    <>
                      <span aria-hidden="true">∞</span>
                      <span className="sr-only">unlimited</span>
                    </>
                  ) : (
                    coupon.maxUses
                  )}
                </td>
                <td className={cellClass}>{coupon.expires}</td>
                <td className={cellClass}>
                  <StatusBadge
                    tone={!coupon.isActive ? "grey" : coupon.expired ? "red" : "green"}
                    label={!coupon.isActive ? "Inactive" : coupon.expired ? "Expired" : "Active"}
                  />
                </td>
                <td className={cellClass}>
                  <Form method="post" preventScrollReset>
                    <HydratedField />
                    <input type="hidden" name="couponId" value={coupon.id} />
                    <button
                      type="submit"
                      name="intent"
                      value={coupon.isActive ? "deactivate" : "activate"}
                      className={smallButton}
                    >
                      {coupon.isActive ? "Deactivate" : "Activate"}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </TableRegion>
      )}
      <Pagination page={coupons.page} hasNext={coupons.hasNext} label="Coupon pages" />
    </AdminPage>
  );
}

/**
 * The create form. Its refusals come with the toasts of docs/product.md "Messages", so every submit
 * is answered by the server; the fields are checked as they are left, with the same messages.
 */
function CreateCouponForm({ reply }: { reply: FormReply }) {
  const navigation = useNavigation();
  const creating =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  const [form, fields] = useSchemaForm({
    id: "coupon",
    schema: couponFormSchema,
    lastResult: reply,
    defaultValue: { type: "PERCENTAGE", maxUses: "0" },
    submitCheckedBy: "server",
  });

  return (
    <section aria-labelledby="coupon-form-title">
      <h3 id="coupon-form-title" className="font-display text-xl font-bold">
        Create a coupon
      </h3>
      <Form
        method="post"
        preventScrollReset
        {...getFormProps(form)}
        className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
      >
        <HydratedField />
        <input type="hidden" name="intent" value="create" />
        <Field label="Code" meta={fields.code} type="text" autoComplete="off" />
        <SelectField
          label="Type"
          meta={fields.type}
          options={COUPON_TYPES.map((type) => ({ value: type, label: COUPON_TYPE_LABELS[type] }))}
        />
        <Field
          label="Discount amount"
          meta={fields.amount}
          hint="Percent (rounded to a whole number) or dollars."
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0.01"
        />
        <Field
          label="Maximum uses"
          meta={fields.maxUses}
          hint="0 means unlimited."
          type="number"
          inputMode="numeric"
          step="1"
          min="0"
        />
        <Field
          label="Expiry date (optional)"
          meta={fields.expiryDate}
          hint="Valid through the end of that day; none means no expiry."
          type="date"
        />
        <div className="flex items-end">
          <button type="submit" className="btn-primary w-full" disabled={creating}>
            {creating ? "Creating…" : "Create Coupon"}
          </button>
        </div>
      </Form>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Coupons | Admin | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
