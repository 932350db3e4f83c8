import { FEATURES } from "#app/components/landing/content";
import { Icon } from "#app/components/landing/icons";
import { SectionHeader } from "#app/components/landing/section-header";

export function Features() {
  return (
    <section id="features" aria-labelledby="features-title" className="bg-paper">
      <div className="section">
        <SectionHeader
          id="features-title"
          eyebrow="Studio features"
          title="Everything a great episode needs, already in the room"
        >
          Walk in with your ideas and your guests. The microphones, cameras, lights and the engineer
          are waiting for you.
        </SectionHeader>
        <ul className="mt-14 grid gap-6 md:grid-cols-3">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="card flex flex-col p-6 lg:p-7">
              <span className="flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-600 ring-1 ring-brand-100">
                <Icon name={feature.icon} className="size-6" />
              </span>
              <h3 className="mt-5 font-display text-xl font-bold">{feature.title}</h3>
              <p className="mt-2 text-ink-soft">{feature.text}</p>
              <ul className="mt-5 space-y-2.5 border-t border-line pt-5 text-[0.9375rem]">
                {feature.items.map((item) => (
                  <li key={item} className="flex gap-2.5">
                    <Icon
                      name="check"
                      className="mt-0.5 size-5 shrink-0 text-brand-600"
                      strokeWidth={2.2}
                    />
                    <span>{item}</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
