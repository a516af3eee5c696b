// One engine double on a fixed loopback port, as a compose service (docker-compose.test.yml):
//   tsx serve.ts ollama|whisper <port> [--no-model]
// --no-model: Ollama as a fresh install has it, no model until the core pulls OLLAMA_MODEL
// (issue 60: the box pulls it on first start, reading the double's progress lines).
import { startOllamaDouble } from '../../doubles/ollama/server.js';
import { startWhisperDouble } from '../../doubles/whisper/server.js';

const [engine, portText, flag] = process.argv.slice(2);
const empty = flag === '--no-model';
const port = Number(portText);
if (!Number.isInteger(port) || port <= 0) throw new Error(`usage: serve.ts ollama|whisper <port> (got port "${portText}")`);
const double = engine === 'ollama' ? await startOllamaDouble({ port, ...(empty ? { models: [] } : {}) }) : engine === 'whisper' ? await startWhisperDouble({ port }) : null;
if (!double) throw new Error(`usage: serve.ts ollama|whisper <port> (got engine "${engine}")`);
console.log(`${engine} double on ${double.url}`);
const stop = () => void double.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
