/** One feature flag (SPEC §3, §6), from the engine's cached flags: undefined until known, false on failure. */
import { useObservable, useObservableState } from 'observable-hooks';
import { catchError, defer, map, of, switchMap } from 'rxjs';
import { command } from '../engine';

export function useFeatureFlag(name: string): boolean | undefined {
  const flag$ = useObservable(
    (inputs$) =>
      inputs$.pipe(
        switchMap(([flag]) =>
          defer(() => command((api) => api.featureFlags())).pipe(
            map((flags) => flags[flag] === true),
            catchError(() => of(false)),
          ),
        ),
      ),
    [name],
  );
  return useObservableState<boolean | undefined>(flag$, undefined);
}
