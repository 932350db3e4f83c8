import { useEffect, useRef } from "react";
import { Form, data, useActionData, useNavigation } from "react-router";
import { AdminPage, EmptyList } from "#app/components/admin/admin-page";
import {
  cellClass,
  FieldError,
  HeaderRow,
  smallButton,
  TableRegion,
} from "#app/components/admin/catalog-ui";
import { Pagination } from "#app/components/admin/pagination";
import { StatusBadge } from "#app/components/dashboard/status-badge";
import { HydratedField } from "#app/components/ui/hydrated-field";
import {
  COUPON_FORM_ERRORS,
  type CouponFieldErrors,
  type CouponInput,
  duplicateCouponMessage,
  formatCouponDiscount,
  formatExpiry,
  parseCouponForm,
} from "#app/domain/coupons";
import { COUPON_TYPE_LABELS, COUPON_TYPES } from "#app/domain/coupon-type";
import { parseId } from "#app/domain/ids";
import { studioDateOf } from "#app/domain/studio-time";
import {
  createCoupon,
  DuplicateCouponError,
  listCoupons,
  setCouponActive,
} from "#app/models/coupon.server";
import { samePageUrl } from "#app/web/same-page.server";
import { readPage } from "#app/models/pagination.server";
import { requireAdmin } from "#app/web/auth.server";
import { readForm } from "#app/web/form.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import type { Route } from "./+types/coupons";

/** Coupon Management (spec sections 2, 4, 5 and 8): the create form and the coupons. */
const FIELDS = ["code", "type", "amount", "maxUses", "expiryDate"] as const;

type CreateReply = {
  intent: "create";
  values: CouponInput;
  errors: Partial<Record<keyof CouponInput, string>>;
};

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const page = listCoupons(readPage(new URL(request.url)));
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
  await requireAdmin(request);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const toast = replyWithToast.bind(null, context, formData);

  if (intent === "create") {
    const values = Object.fromEntries(
      FIELDS.map((field) => [field, text(formData, field)]),
    ) as CouponInput;
    const reply = (errors: CreateReply["errors"]): CreateReply => ({
      intent: "create",
      values,
      errors,
    });
    const parsed = parseCouponForm(values);
    if ("errors" in parsed) {
      const first = FIELDS.map((field) => parsed.errors[field]).find(Boolean);
      const shown = COUPON_FORM_ERRORS[first ?? "amount"];
      return toast(
        reply(describeErrors(parsed.errors)),
        { type: "error", message: shown.title, description: shown.description },
        { status: 400 },
      );
    }
    try {
      const coupon = createCoupon(parsed.coupon, Date.now());
      return redirectWithSuccess(samePageUrl(request), {
        message: "Coupon created",
        description: `Coupon ${coupon.code} was created successfully`,
      });
    } catch (error) {
      if (!(error instanceof DuplicateCouponError)) throw error;
      const message = duplicateCouponMessage(parsed.coupon.code);
      return toast(
        reply({ code: message }),
        { type: "error", message: "Duplicate Coupon Code", description: message },
        { status: 409 },
      );
    }
  }

  if (intent === "deactivate" || intent === "activate") {
    const title = intent === "activate" ? "Error activating coupon" : "Error deactivating coupon";
    const couponId = parseId(text(formData, "couponId"));
    const coupon = couponId === null ? undefined : setCouponActive(couponId, intent === "activate");
    if (!coupon) {
      return toast(
        { intent, error: "Coupon not found" },
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

function describeErrors(errors: CouponFieldErrors): CreateReply["errors"] {
  return Object.fromEntries(
    Object.entries(errors).map(([field, key]) => [field, COUPON_FORM_ERRORS[key].description]),
  );
}

export default function Coupons({ loaderData }: Route.ComponentProps) {
  const { coupons } = loaderData;
  return (
    <AdminPage title="Coupon Management" description="Create discount codes for the booking form.">
      <CreateCouponForm />
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

function useCreateReply(): CreateReply | undefined {
  const reply = useActionData<unknown>() as Partial<CreateReply> | undefined;
  return reply?.intent === "create" ? (reply as CreateReply) : undefined;
}

/**
 * The create form. The server's messages are the spec's, so the browser's own constraint
 * bubbles are off (noValidate): the same texts show with and without JavaScript.
 */
function CreateCouponForm() {
  const reply = useCreateReply();
  const navigation = useNavigation();
  const creating =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  const formRef = useRef<HTMLFormElement>(null);
  const sent = useRef(false);
  // After a successful create (a redirect: no reply) the form empties, as the spec says.
  useEffect(() => {
    if (creating) sent.current = true;
    else if (navigation.state === "idle" && sent.current) {
      sent.current = false;
      if (!reply) formRef.current?.reset();
    }
  }, [creating, navigation.state, reply]);

  const values = reply?.values;
  const errors = reply?.errors ?? {};
  const describedBy = (field: keyof CouponInput, hint?: string) =>
    [hint, errors[field] ? `coupon-${field}-error` : null].filter(Boolean).join(" ") || undefined;
  const input = (field: keyof CouponInput) => ({
    id: `coupon-${field}`,
    name: field,
    "aria-invalid": errors[field] ? true : undefined,
    className: "field-input",
  });

  return (
    <section aria-labelledby="coupon-form-title">
      <h3 id="coupon-form-title" className="font-display text-xl font-bold">
        Create a coupon
      </h3>
      <Form
        ref={formRef}
        method="post"
        noValidate
        preventScrollReset
        className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
      >
        <HydratedField />
        <input type="hidden" name="intent" value="create" />
        <div>
          <label htmlFor="coupon-code" className="field-label">
            Code
          </label>
          <input
            {...input("code")}
            type="text"
            autoComplete="off"
            defaultValue={values?.code ?? ""}
            aria-describedby={describedBy("code")}
          />
          <FieldError id="coupon-code-error" error={errors.code} />
        </div>
        <div>
          <label htmlFor="coupon-type" className="field-label">
            Type
          </label>
          <select
            {...input("type")}
            defaultValue={values?.type ?? "PERCENTAGE"}
            aria-describedby={describedBy("type")}
          >
            {COUPON_TYPES.map((type) => (
              <option key={type} value={type}>
                {COUPON_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
          <FieldError id="coupon-type-error" error={errors.type} />
        </div>
        <div>
          <label htmlFor="coupon-amount" className="field-label">
            Discount amount
          </label>
          <p id="coupon-amount-hint" className="mt-0.5 text-sm text-ink-soft">
            Percent (rounded to a whole number) or dollars.
          </p>
          <input
            {...input("amount")}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0.01"
            defaultValue={values?.amount ?? ""}
            aria-describedby={describedBy("amount", "coupon-amount-hint")}
          />
          <FieldError id="coupon-amount-error" error={errors.amount} />
        </div>
        <div>
          <label htmlFor="coupon-maxUses" className="field-label">
            Maximum uses
          </label>
          <p id="coupon-maxUses-hint" className="mt-0.5 text-sm text-ink-soft">
            0 means unlimited.
          </p>
          <input
            {...input("maxUses")}
            type="number"
            inputMode="numeric"
            step="1"
            min="0"
            defaultValue={values?.maxUses ?? "0"}
            aria-describedby={describedBy("maxUses", "coupon-maxUses-hint")}
          />
          <FieldError id="coupon-maxUses-error" error={errors.maxUses} />
        </div>
        <div>
          <label htmlFor="coupon-expiryDate" className="field-label">
            Expiry date (optional)
          </label>
          <p id="coupon-expiryDate-hint" className="mt-0.5 text-sm text-ink-soft">
            Valid through the end of that day; none means no expiry.
          </p>
          <input
            {...input("expiryDate")}
            type="date"
            defaultValue={values?.expiryDate ?? ""}
            aria-describedby={describedBy("expiryDate", "coupon-expiryDate-hint")}
          />
          <FieldError id="coupon-expiryDate-error" error={errors.expiryDate} />
        </div>
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
