import { Worker, type WorkerOptions } from 'node:worker_threads';

export interface ModuleWorkerOptions extends WorkerOptions {
  /**
   * Runs the whole thread, its module loading included, below normal CPU priority (nice 10), so it
   * yields to the event loop that runs the calls whenever both want the CPU, yet is not starved:
   * at the lowest (nice 19) a box whose calls keep the CPU busy would take minutes over one
   * owner's upload. Linux only: there a nice value is a thread's own; elsewhere it would be the
   * whole process's, so it is not set.
   */
  lowPriority?: boolean;
}

/**
 * A worker thread running the module `name` beside `from` (the caller's import.meta.url):
 * `name.js` when the caller runs built (dist/), `name.ts` when it runs from source (tests,
 * benches, tsx), where tsx's loader is registered inside the thread first: Node does not pass a
 * parent's --import hooks on to workers, and its own type stripping does not map the project's
 * `.js` import specifiers to `.ts` files.
 */
export function moduleWorker(from: string, name: string, options: ModuleWorkerOptions = {}): Worker {
  const { lowPriority, ...rest } = options;
  const source = from.endsWith('.ts');
  const file = new URL(`./${name}.${source ? 'ts' : 'js'}`, from);
  const first = lowPriority && process.platform === 'linux' ? `require('node:os').setPriority(require('node:os').constants.priority.PRIORITY_BELOW_NORMAL); ` : '';
  return new Worker(`${first}${source ? viaTsx(file) : `import(${JSON.stringify(file.href)});`}`, { ...rest, eval: true });
}

/** A worker thread running a TypeScript module through tsx (a development dependency: sources only). */
export function tsWorker(file: URL, options: WorkerOptions = {}): Worker {
  return new Worker(viaTsx(file), { ...options, eval: true });
}

function viaTsx(file: URL): string {
  const tsx = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(file.href)}); });`;
}
