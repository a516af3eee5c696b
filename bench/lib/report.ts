import os from 'node:os';

/** Percentile of a sorted-or-not sample (nearest rank). */
export function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export interface BenchRow {
  bench: string;
  measure: string;
  value: string;
  budget?: string;
}

/** One line per figure, machine-readable for bench/run.ts, human-readable on its own. */
export function report(row: BenchRow): void {
  console.log(`BENCH_RESULT ${JSON.stringify(row)}`);
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join('/')}`;
}
