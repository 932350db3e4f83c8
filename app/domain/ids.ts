/** Digits only: `0x10`, `1e1` or ` 1` are not read as other ids, as Number() would. */
export function parseId(param: string | undefined): number | null {
  if (!param || !/^\d{1,15}$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
