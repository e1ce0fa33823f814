/** DATABASE_URL and its settings (issue 15): PostgreSQL when given, with clear errors for what cannot work. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../../src/server/main';

describe('DATABASE_URL', () => {
  it('is absent by default: the embedded SQLite', () => {
    expect(optionsFromEnv({}).database).toBeUndefined();
    expect(optionsFromEnv({ DATABASE_URL: '  ' }).database).toBeUndefined();
  });

  it('selects PostgreSQL, with a pool of 10 unless SIFT_DB_POOL_SIZE says otherwise', () => {
    expect(optionsFromEnv({ DATABASE_URL: 'postgres://sift:pw@db:5432/sift' }).database).toEqual({ url: 'postgres://sift:pw@db:5432/sift', poolSize: 10 });
    expect(optionsFromEnv({ DATABASE_URL: 'postgresql://db/sift?sslmode=require', SIFT_DB_POOL_SIZE: '25' }).database).toEqual({
      url: 'postgresql://db/sift?sslmode=require',
      poolSize: 25,
    });
  });

  it('verifies the server against SIFT_DB_CA_FILE', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sift-ca-')), 'ca.pem');
    writeFileSync(file, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect(optionsFromEnv({ DATABASE_URL: 'postgres://db/sift', SIFT_DB_CA_FILE: file }).database?.ssl).toEqual({
      ca: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
      rejectUnauthorized: true,
    });
  });

  it.each([
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL must be a postgres:\/\/ URL/],
    [{ DATABASE_URL: 'mysql://db/sift' }, /DATABASE_URL must be a postgres:\/\/ URL, not mysql:/],
    [{ DATABASE_URL: 'file:./data/sift.db' }, /SQLite needs no DATABASE_URL/],
    [{ DATABASE_URL: 'postgres://db/sift', SIFT_DB_POOL_SIZE: '0' }, /SIFT_DB_POOL_SIZE must be a whole number of at least 1, not 0/],
    [{ DATABASE_URL: 'postgres://db/sift', SIFT_DB_POOL_SIZE: 'many' }, /SIFT_DB_POOL_SIZE must be a non-negative number, not many/],
    [{ DATABASE_URL: 'postgres://db/sift', SIFT_DB_CA_FILE: '/nowhere/ca.pem' }, /SIFT_DB_CA_FILE could not be read/],
  ])('refuses %j with a clear error', (env, message) => {
    expect(() => optionsFromEnv(env)).toThrow(message);
  });

  it('never puts the password into an error', () => {
    expect(() => optionsFromEnv({ DATABASE_URL: 'mysql://sift:hunter2@db/sift' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});
