import { feedUrls, NEW_STUDIO_CALENDAR_LINK } from "#app/domain/calendar-feed";
import { env } from "#app/env.server";
import { writeTransaction } from "#app/db.server";
import { createFeedToken, feedToken, regenerateFeedToken } from "#app/models/calendar-feed.server";
import type { PublicUser } from "#app/models/user.server";
import { readForm } from "#app/web/form.server";
import { redirectWithSuccess } from "#app/web/toast.server";

/**
 * The studio calendar feed on the Sessions tab (docs/product.md "Calendar feeds"): each staff
 * member's own private link to every live session, made on the first view of the tab.
 */

export function loadStudioFeed(admin: PublicUser, create: boolean) {
  const token =
    feedToken(admin.id, "STUDIO") ??
    (create ? writeTransaction((tx) => createFeedToken(tx, admin.id, "STUDIO")) : null);
  return feedUrls(env.APP_URL, token);
}

/**
 * The New link form, when the post is one (null otherwise: the tab's other forms go on to
 * their own action, which reads the request itself, so this reads a copy).
 */
export async function studioFeedAction(request: Request, admin: PublicUser, path: string) {
  const formData = await readForm(request.clone());
  if (formData.get("intent") !== NEW_STUDIO_CALENDAR_LINK) return null;
  writeTransaction((tx) => regenerateFeedToken(tx, admin.id, "STUDIO"));
  return redirectWithSuccess(path, {
    message: "New studio calendar link made",
    description: "The old link has stopped working. Subscribe again with the new one.",
  });
}
