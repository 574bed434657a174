import { useMemo, type ReactNode } from 'react';
import { I18nContext, useI18nProvider, useLocaleState, type I18nProvider, type TranslateFunction } from 'react-admin';
import { mergeMessages, type MessageModule, type Messages } from '../../lib/messages';

const lookup = (tree: Messages, key: string): string | undefined => {
  const found = key
    .split('.')
    .reduce<string | Messages | undefined>(
      (node, part) => (node && typeof node === 'object' ? node[part] : undefined),
      tree,
    );
  return typeof found === 'string' ? found : undefined;
};

/**
 * The console's translations plus the messages of some screens. A key of those screens is translated from their
 * `{ en, th }` tables (English when a locale has none), through the console's own provider so that interpolation and
 * plurals work alike; every other key goes to the console's provider as it is.
 */
export function withScreenMessages(parent: I18nProvider, modules: readonly MessageModule[]): I18nProvider {
  const tables: Record<string, Messages> = {
    en: mergeMessages(...modules.map((m) => m.en)),
    th: mergeMessages(...modules.map((m) => m.th)),
  };
  return {
    ...parent,
    translate: (key, options = {}) => {
      const own = lookup(tables[parent.getLocale()] ?? tables.en!, key) ?? lookup(tables.en!, key);
      return own === undefined ? parent.translate(key, options) : parent.translate(key, { ...options, _: own });
    },
  };
}

/**
 * Gives a screen the messages only it shows. They load with the screen's code instead of with the first download of
 * the console (whose budget is tested), and are held to the same rule: Thai for every English message.
 */
export const ScreenMessages = ({ modules, children }: { modules: readonly MessageModule[]; children: ReactNode }) => {
  const parent = useI18nProvider();
  const value = useMemo(() => withScreenMessages(parent, modules), [parent, modules]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
};

/**
 * Translates the keys of `modules` and every other key as the console does: for parts of a screen that sit apart
 * from each other (row checkboxes, a toolbar, a dialog), where one provider around them all would not fit.
 * `modules` must be a constant of the calling module (it is a memo dependency).
 */
export function useScreenTranslate(modules: readonly MessageModule[]): TranslateFunction {
  const parent = useI18nProvider();
  // Subscribes to the language, so that a change of it renders the words again.
  useLocaleState();
  const provider = useMemo(() => withScreenMessages(parent, modules), [parent, modules]);
  return (key, options) => provider.translate(key, options);
}
