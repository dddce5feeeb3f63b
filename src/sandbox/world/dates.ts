/** Calendar helpers in the machine's local time zone (the sandbox's "today" is the local day it started). */

const pad = (n: number) => String(n).padStart(2, '0');

export function localDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function startOfLocalDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The next day with deliveries after `ms` (Monday to Saturday). */
export function nextDeliveryDay(ms: number): string {
  const d = new Date(startOfLocalDay(ms));
  do d.setDate(d.getDate() + 1);
  while (d.getDay() === 0);
  return localDate(d.getTime());
}

/** `YYYY-MM-DD` plus `HH:MM` in local time as an ISO 8601 timestamp. */
export function localIso(date: string, time = '00:00'): string {
  const [y, m, day] = date.split('-').map(Number);
  const [h, min] = time.split(':').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, day ?? 1, h ?? 0, min ?? 0).toISOString();
}
