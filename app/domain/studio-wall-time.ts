import { tzOffset } from "@date-fns/tz";
import { STUDIO_TIME_ZONE } from "#app/domain/studio-time";

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * For a calendar's thousand events: Intl costs about 60 µs each, and the studio's offset changes
 * only on a whole UTC hour, so it is asked once per hour and the rest is arithmetic.
 */
export function studioWallTimes(): (epochMs: number) => string {
  const offsets = new Map<number, number>();
  return (epochMs) => {
    const hour = Math.floor(epochMs / HOUR_MS);
    let offset = offsets.get(hour);
    if (offset === undefined) {
      offset = tzOffset(STUDIO_TIME_ZONE, new Date(hour * HOUR_MS));
      offsets.set(hour, offset);
    }
    return new Date(epochMs + offset * MINUTE_MS).toISOString().slice(0, 16).replace("T", " ");
  };
}
