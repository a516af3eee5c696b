import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/config/config.js';

describe('DATABASE_URL', () => {
  it('unset keeps the SQLite file under DATA_DIR', () => {
    expect(loadConfig({ DATA_DIR: '/srv/box' }).database).toEqual({ kind: 'sqlite', file: path.join('/srv/box', 'appliance.db') });
  });

  it('postgres:// and postgresql:// select PostgreSQL', () => {
    for (const url of ['postgres://app:secret@db.internal:5432/appliance', 'postgresql://app@127.0.0.1/appliance?sslmode=require']) {
      expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ kind: 'postgres', url });
    }
  });

  it('anything else stops the start with a message naming the variable, without echoing the value', () => {
    for (const bad of ['mysql://app:hunter2@db/appliance', 'appliance.db', 'sqlite:///data/appliance.db']) {
      let caught: unknown;
      try {
        loadConfig({ DATABASE_URL: bad });
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as ConfigError).variable).toBe('DATABASE_URL');
      expect((caught as Error).message).toContain('must be a PostgreSQL URL such as postgres://');
      expect((caught as Error).message).not.toContain('hunter2');
    }
  });
});
