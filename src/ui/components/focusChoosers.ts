/**
 * The focus inbox modal's choosers bound to the engine (issue 14 §1): the member's channels and
 * the workspace's people are searched in the worker and come a window at a time, never as a whole
 * list. One source per kind, made once (a multi-select searches again when its source changes).
 */
import type { ChooserKind } from '../../worker/choosers';
import { command } from '../engine';
import type { MultiSelectSource } from './MultiSelect';

function chooser(kind: ChooserKind): MultiSelectSource {
  return {
    window: (query, offset, limit, selected) => command((api) => api.chooserWindow(kind, query, offset, limit, [...selected])),
    ids: (query) => command((api) => api.chooserIds(kind, query)),
    labels: (ids) => command((api) => api.chooserLabels(kind, [...ids])),
  };
}

export const FOCUS_CHOOSERS: Readonly<Record<ChooserKind, MultiSelectSource>> = { channels: chooser('channels'), people: chooser('people') };

/** The choosers that have options (a field without any is not shown): one small answer each, asked side by side. */
export async function focusChoosers(): Promise<{ channels?: MultiSelectSource; people?: MultiSelectSource }> {
  const [channels, people] = await Promise.all([FOCUS_CHOOSERS.channels.window('', 0, 0, []), FOCUS_CHOOSERS.people.window('', 0, 0, [])]);
  return {
    ...(channels.total > 0 ? { channels: FOCUS_CHOOSERS.channels } : {}),
    ...(people.total > 0 ? { people: FOCUS_CHOOSERS.people } : {}),
  };
}
