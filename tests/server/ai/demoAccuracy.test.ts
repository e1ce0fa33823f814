/**
 * The local classifier against the demo generator's ground truth: the small workspace of seed
 * 42, its unread conversations built as the classify-unread route builds them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyCandidates, type ClassifyCandidate } from '../../../src/server/ai/inputs';
import { classifyLocally } from '../../../src/server/ai/local/classify';
import { DemoSource } from '../../../src/server/sources/demoSource';
import type { SiftStore } from '../../../src/server/store/store';
import { openTestStore } from '../testStore';
import { FIXED_NOW } from '../helpers';

describe('demo accuracy', () => {
  let store: SiftStore;
  let candidates: ClassifyCandidate[] = [];

  beforeAll(async () => {
    store = await openTestStore();
    await new DemoSource({ seed: 42, size: 'small', now: () => FIXED_NOW }).prepare(store);
    candidates = await classifyCandidates(store, 'T0ACMEC01', 'U0SIFTME1', { includeLabelled: true });
  });
  afterAll(() => store.close());

  it('classifies at least 90% of the unread conversations as the ground truth says', () => {
    const labelled = candidates.filter((c) => c.truth !== undefined);
    expect(labelled.length).toBeGreaterThanOrEqual(50);
    const right = labelled.filter((c) => classifyLocally(c.input, []).category === c.truth).length;
    expect(right / labelled.length).toBeGreaterThanOrEqual(0.9);
  });
});
