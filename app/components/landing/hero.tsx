import { SectionLink } from "#app/components/site-nav";
import { RATES } from "#app/components/landing/studio";
import { LineIcon, PLAY_PATH } from "#app/components/landing/line-icon";
import { VideoLink } from "#app/components/landing/video-modal";

const HIGHLIGHTS = [
  { value: "24/7", label: "Open every day" },
  { value: "2–8 h", label: "Session length" },
  { value: "4", label: "Guests on mic" },
  { value: "1", label: "Engineer, always" },
];

export function Hero() {
  return (
    <section aria-labelledby="hero-title" className="hero-bg relative overflow-hidden text-white">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-5 pt-14 pb-16 sm:px-8 md:grid-cols-[1.1fr_1fr] md:gap-8 md:pt-20 md:pb-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-semibold text-white/90 ring-1 ring-white/15">
            <span aria-hidden="true" className="size-2 rounded-full bg-brand-400" />
            Podcast &amp; video studio in Atlanta
          </p>
          <h1
            id="hero-title"
            className="mt-5 font-display text-4xl leading-[1.08] font-bold tracking-tight text-balance sm:text-5xl lg:text-6xl"
          >
            Record your show in a <span className="text-brand-300">real studio</span>
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-relaxed text-white/90">
            Broadcast microphones, 4K cameras and an in-house engineer at every session. Book by the
            hour, day or night, from ${RATES.stakeholder} an hour for stakeholders of the innovation
            centre.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <SectionLink id="booking" className="btn-primary">
              Book Now
            </SectionLink>
            <SectionLink id="features" className="btn-secondary text-white hover:bg-white/10">
              Learn More<span className="sr-only"> about the studio</span>
            </SectionLink>
            <VideoLink video="promo" className="btn group px-4 text-white hover:bg-white/10">
              <span className="flex size-8 items-center justify-center rounded-full bg-white text-brand-600 transition-transform group-hover:scale-110">
                <LineIcon path={PLAY_PATH} className="ml-0.5 size-4" filled />
              </span>
              Watch Now<span className="sr-only">: the studio promo video</span>
            </VideoLink>
          </div>
          <dl className="mt-10 grid max-w-lg grid-cols-2 gap-x-4 gap-y-5 border-t border-white/15 pt-6 min-[400px]:grid-cols-4 min-[400px]:gap-2 md:grid-cols-2 md:gap-x-4 md:gap-y-5 lg:grid-cols-4 lg:gap-2">
            {HIGHLIGHTS.map((item) => (
              <div key={item.label} className="flex flex-col-reverse">
                <dt className="mt-1 text-xs leading-snug text-white/75 sm:text-sm">{item.label}</dt>
                <dd className="font-display text-2xl font-bold whitespace-nowrap sm:text-3xl">
                  {item.value}
                </dd>
              </div>
            ))}
          </dl>
        </div>
        <div className="relative mx-auto w-full max-w-sm md:max-w-none">
          <img
            src="/images/studio-hero.svg"
            alt=""
            width={560}
            height={520}
            fetchPriority="high"
            className="h-auto w-full"
          />
        </div>
      </div>
    </section>
  );
}
