// Numbers, dates and markup as a person reads them in an e-mail. Every value that goes
// into HTML goes through escapeHtml: payloads carry user text (paths, nicknames).

const UNITS = ["B", "KB", "MB", "GB", "TB", "PB"];
const oneDecimal = new Intl.NumberFormat("en", { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });

/** 1536 -> "1.5 KB" (1024-based, as the plan limits are). */
export function formatBytes(n: number): string {
  let v = n;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? whole.format(v) : oneDecimal.format(v)} ${UNITS[u]}`;
}

export const formatCount = (n: number) => whole.format(n);

/** Share of a limit, rounded down so that 99.9% never reads as 100%. */
export const formatPercent = (used: number, limit: number) => `${limit > 0 ? Math.floor((used * 100) / limit) : 0}%`;

const monthName = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
const dayName = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
const timeName = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });

const monthStart = (ym: string, plus = 0) => {
  const [y, m] = ym.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + plus, 1));
};

/** "2026-11" -> "November 2026". */
export const formatMonth = (ym: string) => monthName.format(monthStart(ym));
/** "2026-11" -> "1 December 2026": when that month's counter starts again from zero. */
export const formatNextMonthStart = (ym: string) => dayName.format(monthStart(ym, 1));
/** An ISO instant -> "1 December 2026, 14:05 UTC". */
export const formatInstant = (isoString: string) => {
  const d = new Date(isoString);
  return `${dayName.format(d)}, ${timeName.format(d)} UTC`;
};

export { escapeHtml } from "../../core/html.ts";
