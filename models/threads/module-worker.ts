import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module `name` beside `from` (the caller's import.meta.url):
 * `name.js` when the caller runs built (dist/), `name.ts` when it runs from source (tests,
 * benches, tsx), where tsx's loader is registered inside the thread first: Node does not pass a
 * parent's --import hooks on to workers, and its own type stripping does not map the project's
 * `.js` import specifiers to `.ts` files.
 */
export function moduleWorker(from: string, name: string, options: WorkerOptions = {}): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, from), options);
  return tsWorker(new URL(`./${name}.ts`, from), options);
}

/** A worker thread running a TypeScript module through tsx (a development dependency: sources only). */
export function tsWorker(file: URL, options: WorkerOptions = {}): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(file.href)}); })`, { ...options, eval: true });
}
