/**
 * Setup for the 'ui' project (happy-dom): unmount what each test rendered, and undo
 * spies and stubbed globals, so no test sees another's DOM or mocks.
 */
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// React 19 checks this flag before warning that updates are not wrapped in act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});
