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
