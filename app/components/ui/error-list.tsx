/**
 * The one way errors are shown: a field's list, tied to its input by id (see field.tsx), and a
 * whole form's or page's, in a live region. Apart from field.tsx, which brings conform, so a
 * page that only shows a refusal does not load it.
 */

/**
 * A whole form's errors (a declined card, a slot taken meanwhile), in a live region that is
 * always there, so a message that appears in it is read out, also inside a modal dialog where
 * the page's toasts cannot be reached.
 */
export function FormErrors({
  id,
  errors,
  className,
}: {
  id?: string;
  errors?: string[] | null;
  className?: string;
}) {
  return (
    <div role="alert">
      <ErrorList id={id} errors={errors} className={className} />
    </div>
  );
}

/** The errors of one field, announced and tied to its input by id. */
export function ErrorList({
  id,
  errors,
  className,
}: {
  id?: string;
  errors?: string[] | null;
  className?: string;
}) {
  if (!errors?.length) return null;
  return (
    <ul
      id={id}
      className={className ? `field-error ${className}` : "field-error"}
      aria-live="polite"
    >
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}
