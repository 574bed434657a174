import type { RequestHandler } from 'express';
import { BadRequestError } from '../core/errors.js';

/**
 * How deep a request's JSON may nest. No operation's contract needs more than a few levels; free-form values (a
 * business unit's config, its number formats) are bounded here so that a value nested thousands of levels deep is
 * a 400, not a stack overflow in the validator or a service that walks it.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * The depth of a parsed JSON value (a scalar is 0, `[]` and `{}` are 1), walked with an explicit stack, not by
 * recursion, so the check itself cannot overflow; it stops as soon as the value is deeper than `limit`.
 */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Refuses a JSON body nested deeper than MAX_JSON_DEPTH, before the contract validator reads it. */
export const limitJsonDepth: RequestHandler = (req, _res, next) => {
  if (typeof req.body !== 'object' || req.body === null || !jsonDepthExceeds(req.body, MAX_JSON_DEPTH)) return next();
  const detail = `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep; flatten the deepest value (free-form values such as config entries included) to at most ${MAX_JSON_DEPTH} levels`;
  next(
    new BadRequestError(detail, [{ path: '/body', message: `must be nested at most ${MAX_JSON_DEPTH} levels deep` }]),
  );
};
