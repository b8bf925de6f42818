/** The `change_point` extension field of an alert of a `change_point` threshold (Atrium's bench). */
export interface AlertChangePoint {
  direction: 'increase' | 'decrease';
  before: number;
  after: number;
  shift: number | null;
  from_version: number;
  from_hash: string | null;
  to_version: number;
  to_hash: string | null;
}

const version = (number: number, hash: string | null) => `version ${number}${hash ? ` (${hash.slice(0, 12)})` : ''}`;

const signed = (shift: number | null) =>
  shift === null ? 'from 0' : `${shift >= 0 ? '+' : '−'}${Math.abs(shift * 100).toFixed(1)} %`;

const level = (value: number) => Number(value.toPrecision(6)).toLocaleString('en-US');

/** "change point: +30.0 % (100 → 130), between version 19 (…) and version 20 (…)". */
export function changePointText(change: AlertChangePoint): string {
  return `change point: ${signed(change.shift)} (${level(change.before)} → ${level(change.after)}), between ${version(change.from_version, change.from_hash)} and ${version(change.to_version, change.to_hash)}`;
}
