/** observable-hooks bindings to the engine's streams. */
import { useMemo } from 'react';
import { useObservable, useObservableState } from 'observable-hooks';
import { BUILTIN_VIEWS, type View } from '../../model/views';
import { switchMap } from 'rxjs';
import type { ViewWindow } from '../../model/rows';
import type { LiveState } from '../../model/types';
import type { ConversationDetail, LoadState } from '../../worker/engine';
import { remoteStream } from '../engine';
import type { ViewCounts } from '../../worker/api';

/** The live connection's state (shared: the page subscribes once however many read it). */
export const liveState$ = remoteStream<LiveState>((api, o) => api.liveState(o));
const loadState$ = remoteStream<LoadState>((api, o) => api.loadState(o));
const viewCounts$ = remoteStream<ViewCounts>((api, o) => api.viewCounts(o));

export function useLiveState(): LiveState {
  return useObservableState(liveState$, { status: 'connecting', attempt: 0 });
}

export function useLoadState(): LoadState {
  return useObservableState(loadState$, { status: 'loading', loaded: 0, total: 0 });
}

export function useViewCounts(): ViewCounts {
  return useObservableState(viewCounts$, { total: {}, unread: {} });
}

export function useViewWindow(key: string): ViewWindow | undefined {
  const window$ = useObservable((inputs$) => inputs$.pipe(switchMap(([k]) => remoteStream<ViewWindow>((api, o) => api.viewWindow(k, o)))), [key]);
  return useObservableState(window$, undefined);
}

export function useConversation(id: string | null): ConversationDetail | undefined {
  const detail$ = useObservable(
    (inputs$) =>
      inputs$.pipe(
        switchMap(([conversationId]) => (conversationId ? remoteStream<ConversationDetail>((api, o) => api.conversation(conversationId, o)) : [undefined])),
      ),
    [id],
  );
  return useObservableState(detail$, undefined);
}

const views$ = remoteStream<View[]>((api, o) => api.views(o));

/** The visible views of a page, in order (SPEC §4.9); the built-in ones until the engine answers. */
export function usePageViews(page: string): View[] {
  const all = useObservableState(views$, BUILTIN_VIEWS as View[]);
  return useMemo(() => all.filter((v) => v.parentViewId === page && v.isVisible), [all, page]);
}
