/**
 * A multi-select's source over a list of options, answered by the worker's real chooser
 * (src/worker/choosers.ts) as the engine answers it: windows, ids and labels, each a promise.
 */
import type { MultiSelectOption, MultiSelectSource } from '../../src/ui/components/MultiSelect';
import { ChooserIndex, entryOf } from '../../src/worker/choosers';

export function chooserOf(options: readonly MultiSelectOption[]): MultiSelectSource & { windows: Array<[string, number]> } {
  const index = new ChooserIndex(options.map((o) => entryOf(o.detail ? { id: o.id, label: o.label, detail: o.detail } : { id: o.id, label: o.label })));
  const windows: Array<[string, number]> = [];
  return {
    windows,
    window: async (query, offset, limit, selected) => {
      windows.push([query, offset]);
      return index.window(query, offset, limit, selected);
    },
    ids: async (query) => index.ids(query),
    labels: async (ids) => index.labels(ids),
  };
}
