import { timingSafeEqual } from 'node:crypto';
import { inArray, min, sql } from 'drizzle-orm';
import client from 'prom-client';
import { queryRows } from '../db/raw.js';
import { tablesOf } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { registerEngineMetrics } from './engine-metrics.js';

/**
 * Prometheus metrics. Business counts (calls by outcome, jobs, notifications) are read
 * from the database at scrape time, so every capability is measured without having to
 * report to this module, and the figures survive restarts. Request latency and the
 * process's own health come from prom-client's collectors.
 */
function createMetricsRegistry(app: App): client.Registry {
  const { database, health } = app.services;
  const { db } = database;
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });

  const grouped = (text: string) => () => queryRows<{ k1: string; k2?: string | null; n: number }>(db, sql.raw(text));

  const byStatus = grouped('select status k1, mode k2, count(*) n from calls group by status, mode');
  new client.Gauge({
    name: 'appliance_calls',
    help: 'Calls stored, by outcome (status) and mode',
    labelNames: ['status', 'mode'],
    registers: [registry],
    async collect() {
      const rows = await byStatus();
      this.reset();
      for (const r of rows) this.set({ status: r.k1, mode: r.k2 ?? '' }, r.n);
    },
  });

  const jobs = grouped('select kind k1, status k2, count(*) n from jobs group by kind, status');
  new client.Gauge({
    name: 'appliance_jobs',
    help: 'Durable jobs by kind and status (failed = retries exhausted)',
    labelNames: ['kind', 'status'],
    registers: [registry],
    async collect() {
      const rows = await jobs();
      this.reset();
      for (const r of rows) this.set({ kind: r.k1, status: r.k2 ?? '' }, r.n);
    },
  });

  const { jobs: jobsTable } = tablesOf(db);
  const pendingAge = async () =>
    (await db.select({ t: min(jobsTable.createdAt) }).from(jobsTable).where(inArray(jobsTable.status, ['pending', 'running'])))[0]?.t ?? null;
  new client.Gauge({
    name: 'appliance_oldest_pending_job_seconds',
    help: 'Age of the oldest job not yet done: a growing value means an engine is down',
    registers: [registry],
    async collect() {
      const t = await pendingAge();
      this.set(t ? (Date.now() - t.getTime()) / 1000 : 0);
    },
  });

  const notes = grouped('select channel k1, status k2, count(*) n from notifications group by channel, status');
  new client.Gauge({
    name: 'appliance_notifications',
    help: 'Summary notification attempts by channel and result',
    labelNames: ['channel', 'status'],
    registers: [registry],
    async collect() {
      const rows = await notes();
      this.reset();
      for (const r of rows) this.set({ channel: r.k1, status: r.k2 ?? '' }, r.n);
    },
  });

  new client.Gauge({
    name: 'appliance_component_up',
    help: '1 when a component (database, pbx, engines) reports healthy',
    labelNames: ['component'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [name, report] of health) this.set({ component: name }, report().ok ? 1 : 0);
    },
  });

  registerEngineMetrics(registry, app.services.agentEngines.pools);

  const latency = new client.Histogram({
    name: 'appliance_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url;
    if (!route || route === '/metrics') return;
    latency.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  return registry;
}

function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Registered on the root instance (not as an encapsulated plugin) so the latency hook sees every route. */
export function registerMetrics(app: App): void {
  const token = app.services.config.metricsToken;
  const registry = createMetricsRegistry(app);
  app.get('/metrics', async (req, reply) => {
    if (!token) throw new HttpError(404, 'Metrics are off: set METRICS_TOKEN to enable /metrics.');
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !tokenMatches(auth.slice(7), token)) {
      reply.header('www-authenticate', 'Bearer');
      throw new HttpError(401, 'A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>).');
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
