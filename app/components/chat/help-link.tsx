import { Link, type LinkProps } from "react-router";
import { showMessenger } from "#app/components/chat/messenger";
import { SUPPORT_FORM_URL } from "#app/components/chat/support-form-url";

/** A real link to the support form, so it still leads there without JavaScript or a chat. */
export function HelpLink({
  chatAppId,
  onClick,
  ...props
}: { chatAppId: string | null } & Omit<LinkProps, "to">) {
  return (
    <Link
      {...props}
      to={SUPPORT_FORM_URL}
      onClick={(event) => {
        // First: the account menu's own handler closes the menu.
        onClick?.(event);
        if (!chatAppId || !showMessenger()) return;
        event.preventDefault();
        // No navigation follows, so a <details> menu this link sits in closes itself.
        event.currentTarget.closest("details")?.removeAttribute("open");
      }}
    />
  );
}
