/**
 * The server's layers (issue 15 §1) import one way only: app.ts and main.ts are the composition root that
 * nothing imports; the stores know no feature (no AI, route, source or live module); the infrastructure (HTTP
 * edge, sessions, log, live hub, request safety, rate limits, auth) knows no feature beyond the interfaces its
 * context holds (the workspace source's, the AI service's); no AI module imports a route, and none but the
 * local provider's own imports the local provider. Read from the sources' import lines (prettier keeps one specifier a line).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SERVER = join(ROOT, 'src', 'server');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** Each server file's imports, as paths relative to src/server ('store/types', '../model/ai'). */
const imports = new Map(
  files(SERVER).map((file) => {
    const specifiers = [...readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?from\s+'([^']+)'/g)].map((m) => m[1]!);
    const local = specifiers.filter((s) => s.startsWith('.')).map((s) => relative(SERVER, resolve(dirname(file), s)).replace(/\\/g, '/'));
    return [
      relative(SERVER, file)
        .replace(/\\/g, '/')
        .replace(/\.tsx?$/, ''),
      local,
    ] as const;
  }),
);

/** The imports of the files under `from` that reach a module matching `forbidden`. */
function violations(from: (file: string) => boolean, forbidden: RegExp): string[] {
  return [...imports].filter(([file]) => from(file)).flatMap(([file, targets]) => targets.filter((t) => forbidden.test(t)).map((t) => `${file} → ${t}`));
}

const INFRASTRUCTURE = /^(http|errors|sessions|log|requestSafety|rateLimits|auth|context|live\/.*)$/;

describe('the server imports one way', () => {
  it('reads the sources it checks', () => {
    expect(imports.get('routes/conversations')).toContain('store/types');
    expect(imports.size).toBeGreaterThan(40);
  });

  it('nothing imports the composition root (app.ts, main.ts) but main.ts itself', () => {
    expect(violations((file) => file !== 'main', /^(app|main)$/)).toEqual([]);
  });

  it('the stores know no feature', () => {
    expect(violations((file) => file.startsWith('store/'), /^(ai|routes|sources|live)\/|^(messaging|app|main)$/)).toEqual([]);
  });

  it('the infrastructure knows no feature', () => {
    expect(violations((file) => INFRASTRUCTURE.test(file), /^routes\/|^sources\/(?!types$)|^ai\/(?!service$|types$)|^(messaging|search|mentions)$/)).toEqual(
      [],
    );
  });

  it('no AI module imports a route', () => {
    expect(violations((file) => file.startsWith('ai/'), /^routes\//)).toEqual([]);
  });

  it('the AI service and its helpers depend on the provider interface, not on the local provider', () => {
    expect(violations((file) => file.startsWith('ai/') && !file.startsWith('ai/local/'), /^ai\/local\//)).toEqual([]);
  });
});
