/**
 * A duration in plain words for the admin and the owners ("2.4 s", "2 s"). `up` rounds up to the
 * tenth: a median just over a 2 s limit must never read "2 s … the limit is 2 s".
 */
export function secondsText(ms: number, round: 'nearest' | 'up' = 'nearest'): string {
  const tenths = round === 'up' ? Math.ceil(Math.round(ms) / 100) : Math.round(ms / 100);
  return `${(tenths / 10).toFixed(1).replace(/\.0$/, '')} s`;
}
