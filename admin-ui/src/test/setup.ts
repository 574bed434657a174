import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// A react-admin <List> checks access before its first fetch: on a busy 2-core machine a first row can take over
// Testing Library's default second to appear (the first test of a file, while modules load, takes longest).
configure({ asyncUtilTimeout: 10_000 });
