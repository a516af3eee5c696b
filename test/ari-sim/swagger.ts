import fs from 'node:fs';
import path from 'node:path';

/** The real ARI Swagger 1.x declarations (copied from Asterisk's rest-api/api-docs). */
const API_DOCS_DIR = path.resolve(import.meta.dirname, '../../../shared/ari/api-docs');

interface SwaggerParam {
  name: string;
  paramType: 'path' | 'query' | 'body' | 'header';
  required?: boolean;
  allowMultiple?: boolean;
  dataType: string;
  allowableValues?: { valueType: 'LIST'; values: string[] } | { valueType: 'RANGE'; min?: number; max?: number };
}

interface SwaggerOperation {
  httpMethod: string;
  nickname: string;
  responseClass: string;
  parameters?: SwaggerParam[];
}

export interface Declaration {
  basePath: string;
  resourcePath: string;
  apis: Array<{ path: string; operations: SwaggerOperation[] }>;
  models: Record<string, { id: string; properties: Record<string, unknown> }>;
}

export interface Route {
  /** The declaration file without extension, e.g. "channels". */
  resource: string;
  path: string;
  pattern: RegExp;
  pathParamNames: string[];
  operations: Map<string, SwaggerOperation>;
}

export interface MatchedCall {
  resource: string;
  operation: string;
  path: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}

export type Validation = { ok: true; call: MatchedCall } | { ok: false; status: number; message: string };

/** Loads every declaration once; the simulator serves them and validates requests against them. */
export class SwaggerSpec {
  readonly listing: Record<string, unknown>;
  readonly declarations = new Map<string, Declaration>();
  readonly routes: Route[] = [];
  readonly eventTypes: Set<string>;

  constructor(dir = API_DOCS_DIR) {
    this.listing = JSON.parse(fs.readFileSync(path.join(dir, 'resources.json'), 'utf8'));
    for (const file of fs.readdirSync(dir)) {
      if (!file.endsWith('.json') || file === 'resources.json') continue;
      const name = file.replace(/\.json$/, '');
      const decl = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Declaration;
      this.declarations.set(name, decl);
      for (const api of decl.apis) {
        const pathParamNames: string[] = [];
        const source = api.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, n: string) => {
          pathParamNames.push(n);
          return '([^/]+)';
        });
        this.routes.push({
          resource: name,
          path: api.path,
          pattern: new RegExp(`^${source}$`),
          pathParamNames,
          operations: new Map(api.operations.map((o) => [o.httpMethod, o])),
        });
      }
    }
    // Literal segments win over {params} (POST /channels/create is not /channels/{channelId}).
    this.routes.sort((a, b) => a.pathParamNames.length - b.pathParamNames.length);
    this.eventTypes = new Set(Object.keys(this.declarations.get('events')!.models));
  }

  /** A declaration (or the listing) with basePath rewritten for the asking host, as res_ari does. */
  document(name: string, host: string): Record<string, unknown> | undefined {
    const doc = name === 'resources' ? this.listing : this.declarations.get(name);
    if (!doc) return undefined;
    return { ...doc, basePath: `http://${host}/ari` };
  }

  /** The model declared for an event type, e.g. "StasisStart" (undefined for unknown types). */
  eventModel(type: string) {
    return this.declarations.get('events')!.models[type];
  }

  /**
   * Checks a REST call the way Asterisk's generated handlers do: the path and method must
   * exist, every query parameter must be declared, required ones present, and values must
   * parse as their dataType and fit allowableValues. `api_key` is the auth parameter.
   */
  validate(method: string, pathname: string, query: URLSearchParams, body: unknown): Validation {
    const rel = pathname.replace(/^\/ari/, '');
    const route = this.routes.find((r) => r.pattern.test(rel));
    if (!route) return { ok: false, status: 404, message: 'Resource not found' };
    const op = route.operations.get(method);
    if (!op) return { ok: false, status: 405, message: 'Invalid method' };
    const m = route.pattern.exec(rel)!;
    const pathValues: Record<string, string> = {};
    route.pathParamNames.forEach((n, i) => (pathValues[n] = decodeURIComponent(m[i + 1]!)));
    const params = op.parameters ?? [];
    const queryValues: Record<string, string> = {};
    for (const [key, value] of query) {
      if (key === 'api_key') continue;
      const p = params.find((x) => x.name === key && x.paramType === 'query');
      if (!p) return { ok: false, status: 400, message: `Unknown query parameter: ${key}` };
      queryValues[key] = value;
    }
    // Asterisk also accepts query parameters as a JSON body object; the core's client sends only body params there.
    const bodyObject = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    for (const p of params) {
      const raw =
        p.paramType === 'path' ? pathValues[p.name] : p.paramType === 'query' ? queryValues[p.name] : bodyObject[p.name];
      if (raw === undefined || raw === '') {
        if (p.required) return { ok: false, status: 400, message: `Missing required field: ${p.name}` };
        continue;
      }
      if (p.paramType === 'body') continue;
      const problem = checkValue(p, String(raw));
      if (problem) return { ok: false, status: 400, message: problem };
    }
    return { ok: true, call: { resource: route.resource, operation: op.nickname, path: pathValues, query: queryValues, body } };
  }
}

function checkValue(p: SwaggerParam, raw: string): string | undefined {
  const values = p.allowMultiple ? raw.split(',') : [raw];
  for (const v of values) {
    if (p.dataType === 'int' || p.dataType === 'long') {
      if (!/^-?\d+$/.test(v)) return `${p.name} must be an integer (got "${v}")`;
    } else if (p.dataType === 'boolean') {
      // Asterisk's ast_true/ast_false accept these spellings.
      if (!/^(true|false|yes|no|on|off|1|0|y|n|t|f)$/i.test(v)) return `${p.name} must be a boolean (got "${v}")`;
    }
    const av = p.allowableValues;
    if (av?.valueType === 'LIST' && !av.values.includes(v)) {
      return `Invalid ${p.name}: "${v}" (allowed: ${av.values.join(', ')})`;
    }
    if (av?.valueType === 'RANGE') {
      const n = Number(v);
      if (av.min !== undefined && n < av.min) return `${p.name} must be at least ${av.min}`;
      if (av.max !== undefined && n > av.max) return `${p.name} must be at most ${av.max}`;
    }
  }
  return undefined;
}
