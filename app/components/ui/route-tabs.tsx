import { Tab, TabGroup, TabList } from "@headlessui/react";
import { Fragment, type KeyboardEvent } from "react";
import { Link, type LinkProps } from "react-router";
import { useHydrated } from "#app/components/ui/use-hydrated";

export type RouteTab = Omit<LinkProps, "to"> & { to: string };

/**
 * Tabs that are links to pages of their own: links without JavaScript, Headless UI's tabs with
 * it. No TabPanels: the page under them is the one panel, and Headless UI cannot show a group
 * with no tab selected, so that case stays links.
 */
export function RouteTabs({
  tabs,
  selected,
  className,
}: {
  tabs: readonly RouteTab[];
  selected: number;
  className: string;
}) {
  const hydrated = useHydrated();
  if (!hydrated || selected < 0) {
    return (
      <ul className={className}>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <Link {...tab} />
          </li>
        ))}
      </ul>
    );
  }
  // Manual: an arrow only moves the focus, since each tab is a page load.
  return (
    <TabGroup as={Fragment} manual selectedIndex={selected}>
      <TabList className={className}>
        {tabs.map((tab) => (
          <Tab key={tab.to} as={Link} {...tab} onKeyDown={follow} />
        ))}
      </TabList>
    </TabGroup>
  );
}

/** Headless UI keeps Enter and Space from the link: a click follows it, as a mouse's does. */
function follow(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== "Enter" && event.key !== " ") return;
  event.preventDefault();
  event.currentTarget.click();
}
