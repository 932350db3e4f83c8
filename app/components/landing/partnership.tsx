import { PARTNERS } from "#app/components/landing/content";
import { Icon } from "#app/components/landing/icons";
import { SectionHeader } from "#app/components/landing/section-header";

export function Partnership() {
  return (
    <section id="partners" aria-labelledby="partners-title" className="bg-paper">
      <div className="section">
        <SectionHeader
          id="partners-title"
          eyebrow="Our partnership"
          title="Run by builders, backed by broadcasters"
        >
          ATL Creator Studio is a partnership between an entrepreneur innovation centre and a media
          company, both rooted in Atlanta.
        </SectionHeader>
        <ul className="mx-auto mt-14 grid max-w-4xl gap-6 md:grid-cols-2">
          {PARTNERS.map((partner) => (
            <li key={partner.name} className="card flex flex-col p-7">
              <div className="flex items-center gap-4">
                <span
                  aria-hidden="true"
                  className="flex size-14 shrink-0 items-center justify-center rounded-2xl bg-night font-display text-sm font-bold tracking-wider text-white"
                >
                  {partner.initials}
                </span>
                <div>
                  <h3 className="font-display text-lg leading-snug font-bold">{partner.name}</h3>
                  <p className="text-sm font-semibold text-brand-600">{partner.role}</p>
                </div>
              </div>
              <p className="mt-5 flex-1 leading-relaxed text-ink-soft">{partner.text}</p>
              <p className="mt-6">
                <a
                  href={partner.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="font-semibold text-brand-600 underline-offset-4 hover:underline"
                >
                  {partner.linkLabel}
                  <span className="sr-only"> (opens in a new tab)</span>
                  <Icon name="external" className="ml-1.5 inline-block size-4 align-[-2px]" />
                </a>
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
