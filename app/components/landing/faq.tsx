import { FAQS } from "#app/components/landing/content";
import { STUDIO } from "#app/domain/studio";
import { Icon } from "#app/components/landing/icons";
import { SectionHeader } from "#app/components/landing/section-header";

/** <details> sharing a name open one at a time: an exclusive accordion without JavaScript. */
export function Faq() {
  return (
    <section id="faq" aria-labelledby="faq-title" className="bg-paper">
      <div className="section grid gap-10 md:grid-cols-[2fr_3fr] md:gap-14">
        <div>
          <SectionHeader id="faq-title" eyebrow="FAQ" title="Questions, answered" align="left">
            Rates, rules and what to expect on the day. Anything else? We are happy to help.
          </SectionHeader>
          <div className="mt-8 space-y-3 text-[0.9375rem]">
            <a
              href={`mailto:${STUDIO.email}`}
              className="flex items-center gap-3 font-semibold text-brand-600 underline-offset-4 hover:underline"
            >
              <Icon name="mail" className="size-5" />
              {STUDIO.email}
            </a>
            <a
              href={STUDIO.phoneHref}
              className="flex items-center gap-3 font-semibold text-brand-600 underline-offset-4 hover:underline"
            >
              <Icon name="phone" className="size-5" />
              {STUDIO.phone}
            </a>
          </div>
        </div>
        {/* biome-ignore lint/a11y/useSemanticElements: a named scroll area inside the section, not a new document section. */}
        <div
          role="region"
          aria-label="Frequently asked questions"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users must be able to scroll it (axe scrollable-region-focusable).
          tabIndex={0}
          className="faq-scroll max-h-[600px] overflow-y-auto rounded-2xl bg-white ring-1 ring-line"
        >
          {FAQS.map((item, index) => (
            <details
              key={item.question}
              name="faq"
              open={index === 0}
              className="faq-item group border-b border-line last:border-b-0"
            >
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 font-semibold hover:bg-paper sm:px-6 [&::-webkit-details-marker]:hidden">
                <span>{item.question}</span>
                <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-paper text-ink-soft transition-transform group-open:rotate-180 group-open:bg-brand-50 group-open:text-brand-600">
                  <Icon name="chevron" className="size-5" />
                </span>
              </summary>
              <p className="px-5 pb-5 leading-relaxed text-ink-soft sm:px-6">{item.answer}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
