import { useTranslate } from 'react-admin';

/** MUI's Autocomplete speaks English by default (its buttons and empty list): these are the console's words. */
export function useAutocompleteText() {
  const translate = useTranslate();
  return {
    openText: translate('app.autocomplete.open'),
    closeText: translate('app.autocomplete.close'),
    clearText: translate('app.autocomplete.clear'),
    noOptionsText: translate('app.autocomplete.no_options'),
    loadingText: translate('app.autocomplete.loading'),
  };
}
