import type { Log } from '../../../contract/log.js';

/** Undo steps for what an agent call set up, run last-first; a step that fails is logged and the rest still run. */
export class Cleanup {
  private readonly steps: Array<() => Promise<void> | void> = [];

  constructor(
    private readonly log: Log,
    private readonly callId: number,
  ) {}

  push(step: () => Promise<void> | void): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    for (const fn of this.steps.splice(0).reverse()) await Promise.resolve(fn()).catch((err) => this.log.warn({ err, callId: this.callId }, 'agent: cleanup step failed'));
  }
}
