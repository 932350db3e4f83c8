// biome-ignore-all lint/a11y/noRedundantRoles: the table turns into cards (display: block) below 1280 px, where Safari and VoiceOver drop the implicit table roles; the explicit ones keep each cell tied to its column.
import type { ReactNode } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { formatDollars } from "#app/domain/pricing";
import { type SessionList, sessionListParam } from "#app/domain/session-list";
import type { SeriesGroup, SessionRow, SessionsTabData } from "#app/components/dashboard/types";
import { groupSessionRows } from "#app/domain/series-sessions";
import { Icon } from "#app/components/landing/icons";
import { SectionLink } from "#app/components/site-nav";
import { StatusBadge } from "#app/components/dashboard/status-badge";

const LISTS: { id: SessionList; label: string; empty: string }[] = [
  { id: "upcoming", label: "Upcoming Sessions", empty: "No upcoming sessions" },
  { id: "past", label: "Past Sessions", empty: "No past sessions" },
];

const COLUMNS = ["Date & Time", "Duration", "Guests", "Status", "Total", "Actions"] as const;

/**
 * The lists are links (`?list=past`), so they work without JavaScript; below 1280 px the rows
 * become cards, so nothing scrolls sideways down to 320 px (docs/product.md "Screens").
 */
export function SessionsPanel({ data }: { data: SessionsTabData }) {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const active = sessionListParam(params.get("list"));
  const current = LISTS.find((list) => list.id === active) ?? LISTS[0];
  const rows = data[active];

  return (
    <div data-slot="dashboard-sessions">
      {data.retainer ? <RetainerBalance retainer={data.retainer} /> : null}

      <nav aria-label="Sessions" className={data.retainer ? "mt-6" : undefined}>
        <ul className="inline-flex flex-wrap gap-1 rounded-3xl bg-paper p-1 ring-1 ring-line">
          {LISTS.map((list) => (
            <li key={list.id}>
              <Link
                to={`/dashboard?tab=bookings${list.id === "past" ? "&list=past" : ""}`}
                preventScrollReset={pathname === "/dashboard"}
                aria-current={pathname === "/dashboard" && active === list.id ? "page" : undefined}
                className="inline-flex items-center gap-2 rounded-full px-4 py-2 text-sm font-semibold text-ink-soft hover:text-ink aria-[current=page]:bg-white aria-[current=page]:text-ink aria-[current=page]:shadow-sm aria-[current=page]:ring-1 aria-[current=page]:ring-line"
              >
                {list.label}
                <span className="rounded-full bg-line/70 px-2 text-xs tabular-nums text-ink">
                  {data[list.id].length}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {rows.length === 0 ? (
        <div className="mt-6 rounded-2xl border border-dashed border-ink-soft/30 px-6 py-10 text-center">
          <Icon name="calendar" className="mx-auto size-8 text-ink-soft" />
          <p className="mt-3 font-display text-lg font-bold">{current?.empty}</p>
          {active === "upcoming" ? (
            <p className="mt-2 text-ink-soft">
              Ready to record?{" "}
              <SectionLink id="booking" className="font-semibold text-brand-700 underline">
                Book a session
              </SectionLink>
            </p>
          ) : null}
        </div>
      ) : (
        <SessionBlocks
          caption={current?.label ?? ""}
          rows={rows}
          list={active}
          series={data.series}
        />
      )}
    </div>
  );
}

/** docs/product.md "Weekly series". */
function SessionBlocks({
  caption,
  rows,
  list,
  series,
}: {
  caption: string;
  rows: SessionRow[];
  list: SessionList;
  series: SeriesGroup[];
}) {
  const blocks = groupSessionRows(rows);
  if (blocks.length === 1 && blocks[0]?.kind === "single") {
    return <SessionsTable caption={caption} rows={rows} list={list} />;
  }
  return (
    <>
      {blocks.map((block) => {
        if (block.kind === "single") {
          return (
            <SessionsTable
              key={`single-${block.rows[0]?.id}`}
              caption={caption}
              rows={block.rows}
              list={list}
            />
          );
        }
        const group = series.find((one) => one.id === block.seriesId);
        const headingId = `series-${block.seriesId}-${list}`;
        return (
          <section
            key={`series-${block.seriesId}`}
            aria-labelledby={headingId}
            data-slot="series-group"
            className="mt-6 rounded-2xl p-4 ring-1 ring-line"
          >
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h3 id={headingId} className="font-display text-lg font-bold">
                {group?.heading ?? "Weekly series"}
              </h3>
              {list === "upcoming" && group?.payHref ? (
                <Link to={group.payHref} className={PRIMARY}>
                  Pay for the series
                </Link>
              ) : null}
            </div>
            <SessionsTable
              caption={`${caption}: ${group?.heading ?? "Weekly series"}`}
              rows={block.rows}
              list={list}
            />
          </section>
        );
      })}
    </>
  );
}

function SessionsTable({
  caption,
  rows,
  list,
}: {
  caption: string;
  rows: SessionRow[];
  list: SessionList;
}) {
  return (
    <table role="table" className="mt-6 w-full text-left text-[0.9375rem] max-xl:block xl:text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead role="rowgroup" className="max-xl:sr-only">
        <tr role="row" className="border-b border-line text-sm text-ink-soft">
          {COLUMNS.map((column) => (
            <th
              key={column}
              scope="col"
              role="columnheader"
              className={`pb-3 align-bottom font-semibold ${column === "Total" ? "text-right" : ""} ${column === "Actions" ? "pl-1 text-right" : "pr-3"}`}
            >
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup" className="max-xl:grid max-xl:gap-3 md:max-xl:grid-cols-2">
        {rows.map((row) => (
          <tr
            key={row.id}
            role="row"
            className="border-line max-xl:block max-xl:rounded-xl max-xl:border max-xl:p-4 xl:border-b xl:last:border-b-0"
          >
            <td role="cell" className="py-4 pr-3 align-top max-xl:block max-xl:pt-0 max-xl:pb-2">
              <span className="block font-semibold whitespace-nowrap">{row.date}</span>
              <span className="block text-sm text-ink-soft">{row.time}</span>
            </td>
            <Cell label="Duration">{row.hours === 1 ? "1 hour" : `${row.hours} hours`}</Cell>
            <Cell label="Guests">{row.guests}</Cell>
            <Cell label="Status">
              <StatusBadge tone={row.tone} label={row.statusLabel} />
            </Cell>
            <Cell label="Total" className="xl:text-right">
              <span className="font-semibold tabular-nums">{formatDollars(row.totalCost)}</span>
              {row.discount > 0 ? (
                <span className="block text-sm text-ink-soft tabular-nums">
                  −{formatDollars(row.discount)} discount
                </span>
              ) : null}
            </Cell>
            <td
              role="cell"
              className="py-4 pl-1 align-top max-xl:block max-xl:pt-3 max-xl:pl-0 xl:text-right"
            >
              <RowActions row={row} list={list} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** As a card its column name sits beside it (the headers are then sr-only). */
function Cell({
  label,
  className = "",
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <td
      role="cell"
      className={`py-4 pr-3 align-top max-xl:flex max-xl:items-baseline max-xl:justify-between max-xl:gap-4 max-xl:py-1.5 max-xl:pr-0 ${className}`}
    >
      <span aria-hidden="true" className="text-sm text-ink-soft xl:hidden">
        {label}
      </span>
      <span className="max-xl:text-right">{children}</span>
    </td>
  );
}

const ACTION =
  "inline-flex min-h-9 items-center rounded-full px-3 text-sm font-semibold whitespace-nowrap transition-colors";
const PRIMARY = `${ACTION} bg-brand-600 text-white hover:bg-brand-700`;
const SECONDARY = `${ACTION} text-ink ring-1 ring-ink-soft/40 hover:bg-black/5`;

function RowActions({ row, list }: { row: SessionRow; list: SessionList }) {
  // Visually "View", "Cancel"; to a screen reader "View session #12 on Nov 25, 2026".
  const which = (
    <span className="sr-only">
      {" "}
      session #{row.id} on {row.date}
    </span>
  );
  const to = (path = "") => `/dashboard/sessions/${row.id}${path}`;
  // On /dashboard the dialog opens over the list where it is.
  const keepScroll = useLocation().pathname === "/dashboard";
  return (
    <div className="flex flex-wrap gap-2 xl:flex-col xl:items-end">
      {row.payable ? (
        // A series session is paid with its series, at the series checkout.
        <Link
          to={row.seriesId === null ? to("/pay") : `/checkout/series/${row.seriesId}`}
          preventScrollReset={keepScroll}
          className={PRIMARY}
        >
          Pay Now{which}
        </Link>
      ) : (
        // From Past Sessions the dialog keeps that list behind it and closes back to it.
        <Link
          to={to(list === "past" ? "?list=past" : "")}
          preventScrollReset={keepScroll}
          className={SECONDARY}
        >
          View{which}
        </Link>
      )}
      {list === "upcoming" && row.reschedulable ? (
        <Link to={to("/reschedule")} preventScrollReset={keepScroll} className={SECONDARY}>
          Reschedule{which}
        </Link>
      ) : null}
      {list === "upcoming" && row.cancellable ? (
        <Link
          to={to("/cancel")}
          preventScrollReset={keepScroll}
          className={`${ACTION} text-brand-700 ring-1 ring-brand-700/40 hover:bg-brand-50`}
        >
          Cancel{which}
        </Link>
      ) : null}
    </div>
  );
}

function RetainerBalance({ retainer }: { retainer: NonNullable<SessionsTabData["retainer"]> }) {
  const usedShare = Math.min(100, Math.round((retainer.usedHours / retainer.totalHours) * 100));
  return (
    <section
      aria-labelledby="retainer-title"
      className="rounded-2xl bg-night p-5 text-white sm:p-6"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="retainer-title" className="font-display text-lg font-bold">
          Retainer package
        </h3>
        <p className="text-sm text-white/80">
          {retainer.from} – {retainer.through}
        </p>
      </div>
      <p className="mt-3 text-white/90">
        <strong className="text-white">{retainer.hoursLeft} hours left</strong> ·{" "}
        {retainer.usedHours} of {retainer.totalHours} hours used
      </p>
      <div aria-hidden="true" className="mt-3 h-2 overflow-hidden rounded-full bg-white/15">
        <div className="h-full rounded-full bg-gold-400" style={{ width: `${usedShare}%` }} />
      </div>
    </section>
  );
}
