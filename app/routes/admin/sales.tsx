import * as Headless from "@headlessui/react";
import { Fragment } from "react";
import { data, Form, useLocation } from "react-router";
import { AdminPage, EmptyList } from "#app/components/admin/admin-page";
import { Pagination } from "#app/components/admin/pagination";
import { RevenueChart } from "#app/components/admin/revenue-chart";
import { ErrorList } from "#app/components/ui/error-list";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { formatDollars } from "#app/domain/pricing";
import { PERIOD_LABELS, SALES_PERIODS } from "#app/domain/sales-period";
import { loadSalesTab, type SalesTabData } from "#app/routes/admin/sales.server";
import { readForm } from "#app/web/form.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import type { Route } from "./+types/sales";

/**
 * Sales (docs/product.md "Sales tab", "Sales period filter", "Sales figures"): the period lives in
 * the URL (a GET form), the totals net of refunds, the revenue chart and the payments, newest
 * first, one page at a time. A period that cannot be read (a range ending before it starts, a date
 * that is not a day) is answered 400 with the messages at its fields, and nothing is computed from
 * it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const sales = loadSalesTab(new URL(request.url), Date.now());
  return data(sales, sales.ok ? undefined : { status: 400 });
}

/**
 * Refresh: reloads the same view (post/redirect/get) with the 'Data refreshed' notice of
 * docs/product.md "Sales tab". The figures are read fresh on every load; the button is there
 * because the original site had one (docs/product.md "Sales tab").
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const url = new URL(request.url);
  if (formData.get("intent") !== "refresh") {
    return replyWithToast(
      context,
      formData,
      null,
      { type: "error", message: "Unknown action", description: "Nothing was changed." },
      { status: 400 },
    );
  }
  // The view's own URL: a hydrated post arrives at /admin/sales.data with router parameters.
  for (const name of ["index", "_routes"]) url.searchParams.delete(name);
  return redirectWithSuccess(`/admin/sales${url.search}`, { message: "Data refreshed" });
}

/**
 * The loader's messages, not conform's. The range hint is outside any one field, so it and the
 * errors are tied to the controls here: a Headless UI Description's list, written once
 * hydrated, would replace this one.
 */
const ERROR_IDS = { period: "sales-period-error", from: "sales-from-error", to: "sales-to-error" };

export default function SalesTab({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage
      title="Sales Dashboard"
      description="Track performance and revenue metrics"
      actions={<Actions sales={loaderData} />}
    >
      <PeriodForm sales={loaderData} />
      {loaderData.ok ? <Figures sales={loaderData} /> : null}
    </AdminPage>
  );
}

function Actions({ sales }: { sales: SalesTabData }) {
  const { search } = useLocation();
  return (
    <>
      <Form method="post" action={`/admin/sales${search}`}>
        <HydratedField />
        <button type="submit" name="intent" value="refresh" className="btn-secondary min-h-11">
          Refresh
        </button>
      </Form>
      {sales.ok ? (
        <a href={sales.exportHref} className="btn-primary min-h-11" download>
          Export CSV
        </a>
      ) : null}
    </>
  );
}

function PeriodForm({ sales }: { sales: SalesTabData }) {
  const values = sales.ok
    ? { period: sales.choice.period, from: sales.choice.from ?? "", to: sales.choice.to ?? "" }
    : sales.raw;
  const errors = sales.ok ? {} : sales.errors;
  const describedBy = (field: keyof typeof ERROR_IDS, hint?: string) =>
    [hint, errors[field] ? ERROR_IDS[field] : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <Form
      method="get"
      className="grid gap-4 rounded-2xl bg-paper p-4 md:grid-cols-[1fr_1fr_1fr_auto] md:items-end"
    >
      <Headless.Field>
        <Headless.Label className="field-label">Period</Headless.Label>
        <Headless.Select as={Fragment} invalid={Boolean(errors.period)}>
          <select
            name="period"
            defaultValue={values.period || "all"}
            aria-describedby={describedBy("period")}
            className="field-input"
          >
            {SALES_PERIODS.map((period) => (
              <option key={period} value={period}>
                {PERIOD_LABELS[period]}
              </option>
            ))}
          </select>
        </Headless.Select>
        <ErrorList id={ERROR_IDS.period} errors={errors.period} />
      </Headless.Field>
      {(["from", "to"] as const).map((field) => (
        <Headless.Field key={field}>
          <Headless.Label className="field-label">
            {field === "from" ? "From" : "To"}
          </Headless.Label>
          <Headless.Input as={Fragment} invalid={Boolean(errors[field])}>
            <input
              name={field}
              type="date"
              defaultValue={values[field]}
              aria-describedby={describedBy(field, "sales-range-hint")}
              className="field-input"
            />
          </Headless.Input>
          <ErrorList id={ERROR_IDS[field]} errors={errors[field]} />
        </Headless.Field>
      ))}
      <button type="submit" className="btn-primary min-h-11">
        Apply
      </button>
      <p id="sales-range-hint" className="text-sm text-ink-soft md:col-span-4">
        From and To apply to Custom Range, in Atlanta time; leave one empty for no limit on that
        side.
      </p>
    </Form>
  );
}

function Figures({ sales }: { sales: Extract<SalesTabData, { ok: true }> }) {
  const totals = [
    { label: "Total Sales", value: sales.totals.total },
    { label: "Stakeholder Sales", value: sales.totals.stakeholder },
    { label: "Non-Member Sales", value: sales.totals.nonMember },
  ];
  return (
    <>
      <h3 className="sr-only">Totals, {sales.label}</h3>
      <dl className="mt-6 grid gap-4 sm:grid-cols-3">
        {totals.map((total) => (
          <div key={total.label} className="rounded-2xl p-4 ring-1 ring-line">
            <dt className="text-sm font-semibold text-ink-soft">{total.label}</dt>
            <dd className="mt-1 font-display text-2xl font-bold tabular-nums">
              {formatDollars(total.value)}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-sm text-ink-soft">
        {sales.label}, net of refunds. Dates and times in Atlanta time.
      </p>
      {sales.chart ? (
        <RevenueChart bars={sales.chart.bars} unit={sales.chart.unit} periodLabel={sales.label} />
      ) : null}
      <h3 className="mt-8 font-display text-lg font-bold">Payments</h3>
      {sales.rows.length === 0 ? (
        <div className="mt-4">
          <EmptyList>No payments found for the selected time period</EmptyList>
        </div>
      ) : (
        <PaymentsTable rows={sales.rows} />
      )}
      <Pagination page={sales.page} hasNext={sales.hasNext} label="Payment pages" />
    </>
  );
}

const BADGES: Record<string, string> = {
  Stakeholder: "bg-sky-100 text-sky-900 ring-sky-700/20",
  Member: "bg-emerald-100 text-emerald-900 ring-emerald-700/20",
  "Non-Member": "bg-stone-100 text-stone-800 ring-stone-600/20",
};

function PaymentsTable({ rows }: { rows: Extract<SalesTabData, { ok: true }>["rows"] }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must take keyboard focus.
    <section className="mt-4 overflow-x-auto" aria-label="Payments" tabIndex={0}>
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="sr-only">Payments, newest first</caption>
        <thead>
          <tr className="border-b border-line text-ink-soft">
            {["Client", "Date", "Amount", "Type"].map((column) => (
              <th
                key={column}
                scope="col"
                className={`pb-3 pr-3 font-semibold ${column === "Amount" ? "text-right" : ""}`}
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-b border-line last:border-b-0">
              <td className="py-3 pr-3 font-semibold">{row.client}</td>
              <td className="py-3 pr-3">
                <span className="block whitespace-nowrap">{row.date}</span>
                <span className="block text-ink-soft">{row.time}</span>
              </td>
              <td className="py-3 pr-3 text-right tabular-nums whitespace-nowrap">
                {row.amount}
                {row.isRefund ? <span className="block text-ink-soft">Refund</span> : null}
              </td>
              <td className="py-3 pr-3">
                <span
                  className={`inline-flex rounded-full px-2.5 py-0.5 font-semibold whitespace-nowrap ring-1 ${BADGES[row.type] ?? ""}`}
                >
                  {row.type}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Sales | Admin Dashboard | ATL Creator Studio" },
  { name: "description", content: "Sales figures of ATL Creator Studio." },
];
