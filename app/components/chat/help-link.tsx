import { Link } from "react-router";
import { showMessenger } from "#app/components/chat/messenger";

export const SUPPORT_FORM_URL = "/dashboard?tab=support";

/** A real link to the support form, so it still leads there without JavaScript or a chat. */
export function HelpLink({
  chatAppId,
  className,
  children,
}: {
  chatAppId: string | null;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <Link
      to={SUPPORT_FORM_URL}
      className={className}
      onClick={(event) => {
        if (!chatAppId || !showMessenger()) return;
        event.preventDefault();
        // No navigation follows, so the menu this link sits in closes itself.
        event.currentTarget.closest("details")?.removeAttribute("open");
      }}
    >
      {children}
    </Link>
  );
}
