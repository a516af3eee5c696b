import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

// docs/quality.md runs `npm run eval` on the box against the appliance's own engines through
// docker-compose.eval.yml: it must publish them to the host's loopback and nowhere else.

const root = path.resolve(import.meta.dirname, '../..');

describe('docker-compose.eval.yml', () => {
  it('publishes Ollama and whisper.cpp on 127.0.0.1 only, at the ports the core uses on the compose network', () => {
    const file = parse(fs.readFileSync(path.join(root, 'docker-compose.eval.yml'), 'utf8')) as { services: Record<string, { ports: string[] }> };
    expect(file.services).toEqual({ ollama: { ports: ['127.0.0.1:11434:11434'] }, whisper: { ports: ['127.0.0.1:8080:8080'] } });
    const compose = fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
    expect(compose).toContain('OLLAMA_URL: http://ollama:11434');
    expect(compose).toContain('WHISPER_URL: http://whisper:8080');
  });
});
