/** The eyebrow, h2 and intro that open every landing section, so all sections share one scale. */
export function SectionHeader({
  id,
  eyebrow,
  title,
  children,
  align = "center",
  tone = "light",
}: {
  id: string;
  eyebrow: string;
  title: string;
  children?: React.ReactNode;
  align?: "center" | "left";
  tone?: "light" | "dark";
}) {
  const centered = align === "center";
  return (
    <div className={centered ? "mx-auto max-w-2xl text-center" : "max-w-2xl"}>
      <p className={tone === "dark" ? "eyebrow text-brand-300" : "eyebrow"}>{eyebrow}</p>
      <h2
        id={id}
        className="mt-3 font-display text-3xl leading-tight font-bold tracking-tight text-balance md:text-4xl"
      >
        {title}
      </h2>
      {children ? (
        <p
          className={`mt-4 text-lg leading-relaxed ${tone === "dark" ? "text-white/85" : "text-ink-soft"}`}
        >
          {children}
        </p>
      ) : null}
    </div>
  );
}
