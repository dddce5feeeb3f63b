/** The locale dates are written in: the screen's English is British, so its dates are too (12/05/2026, not 5/12/2026). */
const dateLocale = (language: string): string => (language === 'en' ? 'en-GB' : language);

/**
 * Clock time as a packer reads it ("10:31", or "10:31:07"), in the screen's language; the text as
 * given when it is not a date. Building the formatter is the costly part: a list formats through
 * one clockFormatter.
 */
export function clockFormatter(language: string, withSeconds = false): (iso: string | number) => string {
  const format = new Intl.DateTimeFormat(dateLocale(language), { hour: '2-digit', minute: '2-digit', ...(withSeconds ? { second: '2-digit' } : {}), hourCycle: 'h23' });
  return (iso) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? String(iso) : format.format(date);
  };
}

/** Clock time as a packer reads it ("10:31", or "10:31:07"), in the screen's language; the text as given when it is not a date. */
export function formatClock(iso: string | number, language: string, withSeconds = false): string {
  return clockFormatter(language, withSeconds)(iso);
}

/** Date and time for lists that span days. */
export function formatDateTime(iso: string | number, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return new Intl.DateTimeFormat(dateLocale(language), { dateStyle: 'short', timeStyle: 'short', hourCycle: 'h23' }).format(date);
}

/** A calendar day (YYYY-MM-DD) as the screen's language writes it, with its weekday ("Tue 12 May 2026", "di 12 mei 2026"). */
export function formatDay(day: string, language: string): string {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return day;
  return new Intl.DateTimeFormat(dateLocale(language), { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(year, month - 1, date));
}
