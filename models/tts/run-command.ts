import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type CommandFailure = 'missing' | 'timeout' | 'aborted' | 'failed';

/** A helper program (espeak-ng, piper, sox) could not do its job; `reason` says why. */
export class CommandError extends Error {
  constructor(
    readonly reason: CommandFailure,
    message: string,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

export interface RunOptions {
  /** Written to the program's stdin, which is then closed. */
  input?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Said after "not found:" so the operator knows what to install or set. */
  missingHint?: string;
}

/**
 * Runs a program without a shell (text never reaches a command line interpreter),
 * kills it on timeout or abort, and turns every failure into a CommandError that
 * names the program and carries the tail of its stderr.
 */
export function runCommand(bin: string, args: string[], opts: RunOptions): Promise<void> {
  const name = path.basename(bin);
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new CommandError('aborted', `${name} was cancelled before it started`));
    const child = spawn(bin, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    let settled = false;
    const finish = (err?: CommandError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (err) {
        child.kill('SIGKILL');
        reject(err);
      } else resolve();
    };
    const timer = setTimeout(
      () => finish(new CommandError('timeout', `${name} did not finish within ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    const onAbort = () => finish(new CommandError('aborted', `${name} was cancelled`));
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'EACCES') {
        finish(new CommandError('missing', `${name} not found: ${bin} is not an executable on PATH. ${opts.missingHint ?? ''}`.trim()));
      } else finish(new CommandError('failed', `${name} could not start: ${err.message}`));
    });
    child.on('close', (code, sig) => {
      if (code === 0) return finish();
      const detail = stderr.trim().split('\n').slice(-3).join(' | ');
      finish(new CommandError('failed', `${name} exited with ${code ?? sig}${detail ? `: ${detail}` : ''}`));
    });
    // A program that dies early closes its stdin: the EPIPE is reported through 'close'.
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

/** Finds a program the way spawn would: a path as given, or the first match on PATH. */
export function resolveExecutable(bin: string, envPath = process.env.PATH ?? ''): string | undefined {
  const candidates = bin.includes('/') ? [bin] : envPath.split(path.delimiter).filter(Boolean).map((d) => path.join(d, bin));
  for (const c of candidates) {
    try {
      fs.accessSync(c, fs.constants.X_OK);
      if (fs.statSync(c).isFile()) return c;
    } catch {
      // not here; try the next one
    }
  }
  return undefined;
}
