import type { TranslationMessages } from 'react-admin';

/** A message tree; each folder exports `{ en, th }` of this shape. */
export interface Messages {
  [key: string]: string | Messages;
}

export interface MessageModule {
  en: Messages;
  th: Messages;
}

const isTree = (v: unknown): v is Messages => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep merge; later modules win on the same leaf. */
export function mergeMessages(...trees: Messages[]): Messages {
  const out: Messages = {};
  for (const tree of trees) {
    for (const [k, v] of Object.entries(tree)) {
      const prev = out[k];
      out[k] = isTree(prev) && isTree(v) ? mergeMessages(prev, v) : v;
    }
  }
  return out;
}

/** react-admin's message trees allow undefined leaves; ours never hold one. */
export function fromRaMessages(tree: TranslationMessages[string]): Messages {
  const out: Messages = {};
  if (typeof tree !== 'object') return out;
  for (const [k, v] of Object.entries(tree))
    if (v !== undefined) out[k] = typeof v === 'string' ? v : fromRaMessages(v);
  return out;
}
