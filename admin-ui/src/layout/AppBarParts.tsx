import { useEffect, useRef, useState } from 'react';
import {
  LocalesMenuButton,
  RefreshIconButton,
  TitlePortal,
  ToggleThemeButton,
  useLocales,
  useLoading,
  useLocaleState,
  useSidebarState,
  useTranslate,
} from 'react-admin';
import { Box, CircularProgress, IconButton, Menu, MenuItem, Tooltip, useMediaQuery, type Theme } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';

/** Below this width the side menu folds to its icons and the app bar keeps its controls to icons. */
const narrow = (theme: Theme) => theme.breakpoints.down('md');

/**
 * Folds the side menu to its icons when the window is narrower than 900 px (a record needs the width more than the
 * menu's labels), and unfolds it when the window grows back. The operator can still open it with the menu button.
 */
export function useSidebarFitsWidth() {
  const isNarrow = useMediaQuery(narrow, { noSsr: true });
  const [, setOpen] = useSidebarState();
  const first = useRef(true);
  useEffect(() => {
    // On the first screen a wide window keeps the operator's own choice; a narrow one always starts folded.
    if (first.current) {
      first.current = false;
      if (isNarrow) setOpen(false);
      return;
    }
    setOpen(!isNarrow);
  }, [isNarrow, setOpen]);
}

/** The language menu as an icon, for narrow windows: its name says which language is on. */
const CompactLanguageMenu = () => {
  const translate = useTranslate();
  const languages = useLocales();
  const [locale, setLocale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = languages.find((l) => l.locale === locale)?.name ?? locale;
  const label = translate('app.language', { language: current });
  return (
    <>
      <Tooltip title={label}>
        <IconButton color="inherit" aria-label={label} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
          <TranslateIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {languages.map((l) => (
          <MenuItem
            key={l.locale}
            selected={l.locale === locale}
            lang={l.locale}
            onClick={() => {
              setLocale(l.locale);
              setAnchor(null);
            }}
          >
            {l.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};

/** Refresh, turning into a named spinner while anything loads (react-admin's own spinner has no name). */
const AppLoadingIndicator = () => {
  const translate = useTranslate();
  const loading = useLoading();
  return (
    <Box sx={{ position: 'relative', display: 'flex', alignItems: 'center', justifyContent: 'center', width: 40 }}>
      {loading ? (
        <CircularProgress color="inherit" size={16} thickness={6} aria-label={translate('ra.page.loading')} />
      ) : (
        <RefreshIconButton />
      )}
    </Box>
  );
};

/** The app bar's controls after the title: language, light or dark, the loading indicator. */
export const AppBarToolbar = () => {
  const isNarrow = useMediaQuery(narrow, { noSsr: true });
  return (
    <>
      {isNarrow ? <CompactLanguageMenu /> : <LocalesMenuButton />}
      <ToggleThemeButton />
      <AppLoadingIndicator />
    </>
  );
};

/** The page title in the app bar: cut with an ellipsis before it reaches the controls, never under them. */
export const AppBarTitle = () => <TitlePortal sx={{ minWidth: 0, mr: 2 }} />;
