import { tzOffset } from "@date-fns/tz";
import { STUDIO_TIME_ZONE } from "#app/domain/studio-time";

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * A reader of instants as studio wall time, "yyyy-MM-dd HH:mm", for many instants at once (a
 * calendar's thousand events). Formatting each through Intl costs about 60 µs; the studio's
 * offset only changes on a whole UTC hour (its daylight-saving switches happen at 06:00 and
 * 07:00 UTC), so it is asked once per UTC hour and the rest is plain arithmetic.
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
