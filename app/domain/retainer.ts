import { RETAINER_PACKAGE } from "#app/domain/pricing";
import { addStudioDays } from "#app/domain/studio-time";

/**
 * docs/product.md "Retainer package". The window starts on the first session's date, so none of
 * the 30 days is lost to the 48-hour notice.
 */
export type RetainerBalance = {
  bookingId: number;
  startDate: string;
  endDate: string;
  totalHours: number;
  usedHours: number;
};

export function retainerWindow(startDate: string): { startDate: string; endDate: string } {
  return { startDate, endDate: addStudioDays(startDate, RETAINER_PACKAGE.days) };
}

export function retainerCovers(
  window: { startDate: string; endDate: string },
  recordingDate: string,
): boolean {
  return window.startDate <= recordingDate && recordingDate < window.endDate;
}

export function retainerHoursLeft(retainer: RetainerBalance): number {
  return Math.max(0, retainer.totalHours - retainer.usedHours);
}

/** The rest is billed by the hour. */
export function retainerHoursToDraw(
  retainer: RetainerBalance | null,
  recordingDate: string,
  hours: number,
): number {
  if (!retainer || !retainerCovers(retainer, recordingDate)) return 0;
  return Math.min(hours, retainerHoursLeft(retainer));
}
