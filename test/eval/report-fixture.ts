import fs from 'node:fs';
import path from 'node:path';
import { qualityReportsDir } from '../../core/quality/reports.js';
import { buildReport, type SavedReport } from '../../core/quality/evaluation/report.js';

/** A report as `npm run eval` saves it (of an empty run: its figures are set by the test), for the given Whisper model and time. */
export function qualityReport(whisperModel: string, at: string): SavedReport {
  return buildReport({
    messages: [],
    conversations: [],
    outputs: { messages: [], turns: [] },
    engines: { stt: { engine: 'whisper.cpp', model: whisperModel, endpoints: 1 }, llm: { engine: 'ollama', model: 'llama3.2:3b', endpoints: 1 }, tts: { engine: 'piper' } },
    audioFingerprint: 'abc',
    audioTools: 'eSpeak NG 1.51; SoX v14.4.2',
    partial: false,
    startedAt: new Date(at),
    finishedAt: new Date(at),
  });
}

/** Writes it where the server reads reports: $DATA_DIR/eval/reports. */
export function saveQualityReport(dataDir: string, report: SavedReport, file = `${report.createdAt.replace(/[:.]/g, '-')}.json`): void {
  const dir = qualityReportsDir(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, file), JSON.stringify(report));
}
