// The console's settings that live in the browser: its language and react-admin's store (the theme).
import type { Page } from 'playwright-core';

/** Writes one value of the page's localStorage. */
export function storeInBrowser(page: Page, key: string, value: string): Promise<void> {
  return page.evaluate(
    ([k, v]) =>
      (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(k, v),
    [key, value] as const,
  );
}

/** Switches the console's language and reads the page again in it: the language is read when the console starts. */
export async function switchConsoleLanguage(page: Page, locale: 'en' | 'th'): Promise<void> {
  await storeInBrowser(page, 'locale', locale);
  await page.reload();
}
