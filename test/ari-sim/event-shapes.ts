import type { SwaggerSpec } from './swagger.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{4}$/;

type Model = { properties: Record<string, { type: string; required?: boolean; allowableValues?: { values?: string[] } }> };

/**
 * Lists how an event differs from its events.json model: missing required properties
 * (including Message/Event's type, application, timestamp), nested models checked the
 * same way, values outside allowableValues, and timestamps not in Asterisk's format.
 */
export function eventShapeProblems(spec: SwaggerSpec, event: Record<string, unknown>): string[] {
  const type = String(event.type);
  const models = new Map<string, Model>();
  for (const decl of spec.declarations.values()) {
    for (const [name, m] of Object.entries(decl.models ?? {})) models.set(name, m as unknown as Model);
  }
  const problems: string[] = [];
  const check = (modelName: string, value: Record<string, unknown>, at: string) => {
    const model = models.get(modelName);
    if (!model) return problems.push(`${at}: unknown model ${modelName}`);
    for (const [prop, def] of Object.entries(model.properties)) {
      const v = value[prop];
      if (v === undefined) {
        if (def.required) problems.push(`${at}.${prop} is required`);
        continue;
      }
      if (def.allowableValues?.values && !def.allowableValues.values.includes(String(v))) {
        problems.push(`${at}.${prop}="${String(v)}" not allowed`);
      }
      if (def.type === 'Date' && !TIMESTAMP.test(String(v))) problems.push(`${at}.${prop}="${String(v)}" is not an Asterisk timestamp`);
      if (models.has(def.type) && typeof v === 'object' && v !== null) check(def.type, v as Record<string, unknown>, `${at}.${prop}`);
    }
  };
  if (!models.has(type)) return [`unknown event type ${type}`];
  check('Message', event, type);
  check('Event', event, type);
  check(type, event, type);
  return problems;
}
