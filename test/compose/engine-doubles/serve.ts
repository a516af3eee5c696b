// One engine double on a fixed loopback port, as a compose service (docker-compose.test.yml):
//   tsx serve.ts ollama|whisper <port> [--no-model]
// --no-model: Ollama as a fresh install has it, no model until the core pulls OLLAMA_MODEL
// (issue 60: the box pulls it on first start, reading the double's progress lines).
import { startOllamaDouble, type OllamaRequest } from '../../doubles/ollama/server.js';
import { startWhisperDouble } from '../../doubles/whisper/server.js';

// The agent's turns (asked with the reply contract's JSON schema as `format`) get an answer in
// that form, so the stack's agent speaks a sentence and the self-test can time its first audio;
// everything else (summaries) gets the double's plain line.
const AGENT_ANSWER = JSON.stringify({ intent: 'question', answered: true, answer: 'We are open Monday to Friday, from eight until six.' });
const composeReplier = (req: OllamaRequest) => (req.body.format ? AGENT_ANSWER : 'A caller left a message.');

const [engine, portText, flag] = process.argv.slice(2);
const empty = flag === '--no-model';
const port = Number(portText);
if (!Number.isInteger(port) || port <= 0) throw new Error(`usage: serve.ts ollama|whisper <port> (got port "${portText}")`);
const double = engine === 'ollama' ? await startOllamaDouble({ port, ...(empty ? { models: [] } : {}) }).then((d) => Object.assign(d, { replier: composeReplier })) : engine === 'whisper' ? await startWhisperDouble({ port }) : null;
if (!double) throw new Error(`usage: serve.ts ollama|whisper <port> (got engine "${engine}")`);
console.log(`${engine} double on ${double.url}`);
const stop = () => void double.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
