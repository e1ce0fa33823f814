/**
 * The worker side of tests/e2e/workerPage.ts: answers `{id, op, args}` with `{id, result}` or `{id, error}`.
 * Imported by the worker entries it bundles (browser code: no Node imports).
 */
export type Ops = Record<string, (args: never) => unknown>;

export function serveOps(ops: Ops): void {
  const scope = self as unknown as { onmessage: ((event: MessageEvent) => void) | null; postMessage(message: unknown): void };
  scope.onmessage = async (event: MessageEvent<{ id: number; op: string; args: never }>) => {
    const { id, op, args } = event.data;
    try {
      const run = ops[op];
      if (!run) throw new Error(`no op ${op}`);
      scope.postMessage({ id, result: await run(args) });
    } catch (error) {
      scope.postMessage({ id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    }
  };
}
