import { Worker } from 'node:worker_threads';

/**
 * A worker thread running a TypeScript module: tsx's loader is registered inside the worker
 * first (Node does not pass a parent's --import hooks on to workers).
 */
export function tsWorker(file: URL): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(file.href)}); })`, { eval: true });
}
