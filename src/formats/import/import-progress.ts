/** A duration for people: `45 s`, `3 min 05 s`, `2 h 10 min`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/**
 * One progress line of an import's validation: how many distinct codes are done, the rate so far
 * and the time left at that rate (`estimating` until the first one is done).
 */
export function importProgressLine(done: number, total: number, elapsedMs: number): string {
  const head = `validated ${done} of ${total} distinct environment code${total === 1 ? '' : 's'}`;
  if (done >= total) return `${head} in ${formatDuration(elapsedMs)}`;
  if (done <= 0 || elapsedMs <= 0) return `${head}, estimating the time left`;
  const perSecond = done / (elapsedMs / 1000);
  const rate = perSecond >= 10 ? perSecond.toFixed(0) : perSecond.toFixed(1);
  return `${head}, ${rate}/s, about ${formatDuration(((total - done) * elapsedMs) / done)} left`;
}
