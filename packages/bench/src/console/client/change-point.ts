// How the console names a change point (the `change_point` extension field of alerts and perf results).
import type { JsonChangePoint } from '../../wire/types.js';

/** "+30.0 %" (or "from 0" when the old level was 0). */
export const shiftText = (change: JsonChangePoint): string =>
  change.shift === null ? 'from 0' : `${change.shift >= 0 ? '+' : '−'}${Math.abs(change.shift * 100).toFixed(1)} %`;

const level = (value: number) => Number(Number(value).toPrecision(6)).toLocaleString('en-US');
const version = (number: number, hash: string | null) => `version ${number}${hash ? ` (${hash.slice(0, 12)})` : ''}`;

/** "+30.0 % (100 → 130), between version 19 (…) and version 20 (…)". */
export const changePointText = (change: JsonChangePoint): string =>
  `${shiftText(change)} (${level(change.before)} → ${level(change.after)}), between ${version(change.from_version, change.from_hash)} and ${version(change.to_version, change.to_hash)}`;
