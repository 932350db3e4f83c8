import { Link } from "react-router";
import { showMessenger } from "#app/components/chat/messenger";

export const SUPPORT_FORM_URL = "/dashboard?tab=support";

/**
 * "Help" (docs/product.md "Support and chat"): the support-request form, or the chat
 * messenger when one is configured and running. It stays a real link, so without JavaScript,
 * or when the widget could not load, it still leads to the form.
 */
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
