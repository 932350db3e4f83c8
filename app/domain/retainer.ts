import { RETAINER_PACKAGE } from "#app/domain/pricing";
import { addStudioDays } from "#app/domain/studio-time";

/**
 * The retainer package (docs/product.md "Retainer package"): $999 buys 8 studio hours to
 * use within 30 days from its start day. The start day is the first session's recording
 * date, so none of the 30 days are lost to the 48-hour notice; the window is
 * [startDate, endDate) with endDate = startDate + 30 days.
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

/**
 * Hours a later session draws from the customer's active retainer: as many as are left,
 * when the session falls inside the window; the rest is billed by the hour.
 */
export function retainerHoursToDraw(
  retainer: RetainerBalance | null,
  recordingDate: string,
  hours: number,
): number {
  if (!retainer || !retainerCovers(retainer, recordingDate)) return 0;
  return Math.min(hours, retainerHoursLeft(retainer));
}
