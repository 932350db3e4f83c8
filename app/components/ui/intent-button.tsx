import { useNavigation } from "react-router";

/**
 * A form's submit button that names its `intent` (pages whose forms post to one action, told
 * apart by it) and says it is busy while that form's post is on its way.
 */
export function IntentButton({
  intent,
  label,
  busyLabel,
  className = "btn-primary",
}: {
  intent: string;
  label: string;
  busyLabel: string;
  className?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <button type="submit" name="intent" value={intent} className={className} disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  );
}
