// npm run eval [-- --limit N] [--against report.json] [--doubles[=perfect|garble-numbers|invent-prices]]
// Runs the quality evaluation against the engines the environment configures, exactly as the
// core reads it (WHISPER_URL, WHISPER_MODEL, OLLAMA_URL, OLLAMA_MODEL, TTS_ENGINE, DATA_DIR...),
// prints the report and the comparison with the previous one, and saves both under
// $DATA_DIR/eval/reports. docs/quality.md explains the figures.
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config/config.js';
import { evaluate } from './evaluate.js';

const USAGE = 'usage: npm run eval -- [--limit N] [--against <saved report.json>] [--doubles[=perfect|garble-numbers|invent-prices]]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      limit: { type: 'string' },
      against: { type: 'string' },
      doubles: { type: 'string' },
      help: { type: 'boolean' },
    },
    // `--doubles` alone means the perfect doubles.
    args: process.argv.slice(2).map((a) => (a === '--doubles' ? '--doubles=perfect' : a)),
  });
  if (values.help) return void console.log(USAGE);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new Error(`--limit must be a whole number of entries, at least 1 (got "${values.limit}")\n${USAGE}`);

  let env: NodeJS.ProcessEnv = process.env;
  let stopDoubles = async () => undefined as void;
  let script: Parameters<typeof evaluate>[0]['beforeRun'];
  if (values.doubles !== undefined) {
    // The project's test doubles, in this process: the harness checked end to end without a model.
    const { EVAL_DOUBLE_BEHAVIOURS, scriptEvalDoubles } = await import('../test/doubles/eval-engines.js');
    const behaviour = EVAL_DOUBLE_BEHAVIOURS.find((b) => b === values.doubles);
    if (!behaviour) throw new Error(`--doubles takes one of ${EVAL_DOUBLE_BEHAVIOURS.join(', ')} (got "${values.doubles}")`);
    const { startWhisperDouble } = await import('../test/doubles/whisper/server.js');
    const { startOllamaDouble } = await import('../test/doubles/ollama/server.js');
    const whisper = await startWhisperDouble();
    const ollama = await startOllamaDouble({ models: [`double-${behaviour}`] });
    stopDoubles = async () => void (await Promise.all([whisper.close(), ollama.close()]));
    env = { ...process.env, WHISPER_URL: whisper.url, WHISPER_MODEL: `double-${behaviour}`, OLLAMA_URL: ollama.url, OLLAMA_MODEL: `double-${behaviour}` };
    script = (set, recordings) => scriptEvalDoubles({ whisper, ollama }, set, recordings, behaviour);
  }
  try {
    const config = loadConfig(env);
    const result = await evaluate({ config, limit, against: values.against, beforeRun: script, progress: (line) => process.stderr.write(process.stderr.isTTY ? `\r${line.padEnd(40)}` : `${line}\n`) });
    if (process.stderr.isTTY) process.stderr.write('\n');
    process.stdout.write(result.text);
    console.log(`\nSaved ${result.files.json} and ${result.files.text}`);
  } finally {
    await stopDoubles();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`\nnpm run eval: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
