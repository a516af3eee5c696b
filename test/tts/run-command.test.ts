import { describe, expect, it } from 'vitest';
import { CommandError, runCommand } from '../../models/tts/run-command.js';

describe('runCommand', () => {
  it('kills a program that overruns its timeout', async () => {
    const err = await runCommand('sleep', ['30'], { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandError);
    expect((err as CommandError).reason).toBe('timeout');
    expect((err as Error).message).toBe('sleep did not finish within 200 ms');
  });

  it('stops a program when the caller aborts', async () => {
    const controller = new AbortController();
    const run = runCommand('sleep', ['30'], { timeoutMs: 30_000, signal: controller.signal });
    controller.abort();
    await expect(run).rejects.toMatchObject({ reason: 'aborted' });
  });

  it('passes stdin and reports a failure with the tail of stderr', async () => {
    await expect(runCommand('sh', ['-c', 'read x; echo "got $x" >&2; exit 4'], { input: 'hello\n', timeoutMs: 5000 })).rejects.toThrow(
      'sh exited with 4: got hello',
    );
  });

  it('names the missing program and the hint', async () => {
    await expect(runCommand('no-such-engine-xyz', [], { timeoutMs: 5000, missingHint: 'Install it.' })).rejects.toThrow(
      'no-such-engine-xyz not found: no-such-engine-xyz is not an executable on PATH. Install it.',
    );
  });
});
