// Dates as the API reads them: ISO 8601 UTC for years 0…9999, `jd:` (a UTC Julian date) beyond.

const MS_PER_DAY = 86_400_000;
const JD_UNIX_EPOCH = 2_440_587.5;

/** The `date` parameter for an instant in Unix milliseconds. */
export function dateParam(ms) {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  if (y >= 0 && y <= 9999) return isoSeconds(ms);
  return `jd:${(ms / MS_PER_DAY + JD_UNIX_EPOCH).toFixed(6)}`;
}

/** `2026-11-22T00:00:00Z` (milliseconds kept only when there are any). */
export function isoSeconds(ms) {
  const s = new Date(ms).toISOString();
  return s.endsWith('.000Z') ? s.slice(0, -5) + 'Z' : s;
}

/** What the date field shows: the ISO form to the second, or the `jd:` form out of 0…9999. */
export function displayDate(ms) {
  const p = dateParam(Math.round(ms / 1000) * 1000);
  return p;
}

/**
 * Parses what a person types: `now`, `jd:2461001.5`, `2026-11-22`, `2026-11-22T06:30Z`,
 * `2026-11-22 06:30:00`. Returns Unix ms, or throws an Error saying what is accepted.
 */
export function parseDateInput(text, nowMs = Date.now()) {
  const t = text.trim();
  if (t === '' || t.toLowerCase() === 'now') return nowMs;
  const jd = /^jd:\s*(-?\d+(\.\d+)?)$/i.exec(t);
  if (jd) return (Number(jd[1]) - JD_UNIX_EPOCH) * MS_PER_DAY;
  const m = /^(-?\d{4,6})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|UTC)?$/i.exec(t);
  if (m) {
    const [, y, mo, d, h = '0', mi = '0', s = '0', frac = ''] = m;
    const date = new Date(0);
    date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
    date.setUTCHours(Number(h), Number(mi), Number(s), frac ? Math.round(Number(frac) * 1000) : 0);
    if (!Number.isNaN(date.getTime())) return date.getTime();
  }
  throw new Error(`“${t}” is not a date: use ISO 8601 UTC (2026-11-22 or 2026-11-22T06:30:00Z), jd:2461001.5 or now.`);
}

export const MS = { second: 1000, minute: 60_000, hour: 3_600_000, day: MS_PER_DAY };
