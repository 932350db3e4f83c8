import { AUDIENCES } from "#app/components/landing/content";
import { Icon } from "#app/components/landing/icons";
import { SectionHeader } from "#app/components/landing/section-header";
import { VideoLink } from "#app/components/landing/video-modal";
import { VideoThumb } from "#app/components/landing/video-thumb";

export function Audiences() {
  return (
    <section
      id="who-is-it-for"
      aria-labelledby="audiences-title"
      className="border-y border-line bg-white"
    >
      <div className="section">
        <SectionHeader
          id="audiences-title"
          eyebrow="Who it's for"
          title="Built for Atlanta's storytellers"
        >
          Whether it is your first episode or your hundredth, the studio is set up for people with
          something to say.
        </SectionHeader>
        <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {AUDIENCES.map((audience) => (
            <li key={audience.title} className="card p-6">
              <span className="flex size-11 items-center justify-center rounded-full bg-night text-brand-300">
                <Icon name={audience.icon} className="size-5" />
              </span>
              <h3 className="mt-5 font-display text-lg leading-snug font-bold">{audience.title}</h3>
              <p className="mt-2 text-[0.9375rem] leading-relaxed text-ink-soft">{audience.text}</p>
            </li>
          ))}
        </ul>

        <figure className="mt-16 grid items-center gap-8 overflow-hidden rounded-3xl bg-night p-6 text-white sm:p-10 md:grid-cols-2 md:gap-12">
          <VideoLink video="testimonial" className="group block rounded-2xl">
            <VideoThumb label="Watch the testimonial" caption="Creator stories · 9 seconds" />
          </VideoLink>
          <div>
            <Icon name="star" className="size-8 text-gold-400" filled />
            <blockquote className="mt-4 font-display text-2xl leading-snug font-semibold text-balance md:text-3xl">
              <p>“We walked in with an idea and left with our first season.”</p>
            </blockquote>
            <figcaption className="mt-5 text-white/80">
              A small-business founder and podcast host who records with us every month.
            </figcaption>
          </div>
        </figure>
      </div>
    </section>
  );
}
