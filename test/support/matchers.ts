/**
 * Vitest's asymmetric matchers, typed as the value they stand for. Vitest types them `any`, which would leak into
 * every expected object they sit in; here `anyString()` is a string wherever a string is expected.
 *
 *   expect(body).toEqual({ id: anyString(), name: 'Thai Baht' });
 */
import { expect } from 'vitest';

/** Any string. */
export const anyString = (): string => expect.any(String) as string;

/** Any number. */
export const anyNumber = (): number => expect.any(Number) as number;

/** A string matching the pattern. */
export const stringMatching = (pattern: RegExp | string): string => expect.stringMatching(pattern) as string;

/** Any object. */
export const anyObject = (): object => expect.any(Object) as object;
