import fs from 'node:fs/promises';
import path from 'node:path';
import { Value } from 'typebox/value';
import type { ApiQualityReport } from '../../contract/api.js';
import { QualityReportSchema } from '../../contract/schemas/quality.js';

// The quality evaluation's saved reports ($DATA_DIR/eval/reports, written by `npm run eval` and
// by the box's self-test, core/self-test):
// where they live, and the latest of each set of models, for the admin console.

export function qualityReportsDir(dataDir: string): string {
  return path.join(dataDir, 'eval', 'reports');
}

export interface SavedReports {
  reports: ApiQualityReport[];
  /** Files in the folder that are not a report this version reads (hand-edited, an older format, cut short). */
  unreadable: string[];
}

/** Every readable report in the folder, newest first. No folder yet: none. */
export async function readQualityReports(dir: string): Promise<SavedReports> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { reports: [], unreadable: [] };
    throw err;
  }
  const reports: ApiQualityReport[] = [];
  const unreadable: string[] = [];
  for (const name of names) {
    try {
      const data: unknown = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8'));
      if (Value.Check(QualityReportSchema, data)) reports.push(data as ApiQualityReport);
      else unreadable.push(name);
    } catch {
      unreadable.push(name);
    }
  }
  reports.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return { reports, unreadable };
}

/** The newest report of each set of models (reports newest first in, newest first out). */
export function latestPerModels(reports: ApiQualityReport[]): ApiQualityReport[] {
  const seen = new Set<string>();
  return reports.filter((r) => !seen.has(r.models) && !!seen.add(r.models));
}

/** The evaluations `npm run eval` made apart from the box's self-tests (core/self-test), each newest first. */
export function splitSelfTests(reports: ApiQualityReport[]): { evaluations: ApiQualityReport[]; selfTests: ApiQualityReport[] } {
  return { evaluations: reports.filter((r) => !r.selfTest), selfTests: reports.filter((r) => !!r.selfTest) };
}
