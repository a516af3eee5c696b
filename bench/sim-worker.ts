// Runs the ARI simulator in its own thread for benchmarks, so its CPU does not count
// against the core's. Messages: start, call, report, stop (see calls-100.ts).
import { parentPort } from 'node:worker_threads';
import { AriSimulator } from '../test/ari-sim/simulator.js';
import type { CallerScript } from '../test/ari-sim/caller-script.js';

let sim: AriSimulator | undefined;
/** Absolute wall-clock ms: performance.now() has a different origin in each thread. */
const toEpoch = (perfMs: number) => performance.timeOrigin + perfMs;

parentPort!.on('message', async (msg: { id: number; cmd: string; args?: any }) => {
  const reply = (value: unknown) => parentPort!.postMessage({ id: msg.id, value });
  switch (msg.cmd) {
    case 'start':
      sim = new AriSimulator(msg.args);
      await sim.start();
      return reply({ url: sim.url, credentials: sim.credentials });
    case 'mount':
      sim!.mountSounds(msg.args.key, msg.args.dir);
      return reply(true);
    case 'call': {
      const { app, from, did, script } = msg.args as { app: string; from: string; did: string; script: CallerScript };
      const call = sim!.call({ app, from, did, script });
      void call.done.then((o) => parentPort!.postMessage({ done: call.channelId, outcome: o }));
      return reply(call.channelId);
    }
    case 'connected':
      return reply(sim!.appConnected(msg.args));
    case 'report':
      return reply({
        stasisStart: Object.fromEntries([...sim!.stasisStartSentAt].map(([id, t]) => [id, toEpoch(t)])),
        answers: sim!.restLog.filter((r) => r.operation === 'channels.answer').map((r) => ({ path: r.path, at: toEpoch(r.receivedAtMs) })),
        violations: sim!.violations.length,
        leftOnAsterisk: sim!.storedRecordingNames().length,
      });
    case 'stop':
      await sim?.stop();
      return reply(true);
  }
});
