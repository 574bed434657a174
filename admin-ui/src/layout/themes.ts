import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';
import { PALETTE } from '../lib/palette';

const light = PALETTE.light;
const dark = PALETTE.dark;

/** The app bar takes the primary colour, like the primary buttons (react-admin's default would be the secondary). */
const appBarOnPrimary = { MuiAppBar: { defaultProps: { color: 'primary' as const } } };

export const lightTheme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: {
    ...defaultLightTheme.palette,
    primary: { main: light.primary, contrastText: light.primaryText },
    secondary: { main: light.secondary, contrastText: light.primaryText },
    background: { default: light.background, paper: light.paper },
    success: { main: light.status.success },
    error: { main: light.status.error },
    warning: { main: light.status.warning },
  },
  components: { ...defaultLightTheme.components, ...appBarOnPrimary },
};

export const darkTheme: RaThemeOptions = {
  ...defaultDarkTheme,
  palette: {
    ...defaultDarkTheme.palette,
    mode: 'dark',
    primary: { main: dark.primary, contrastText: dark.primaryText },
    secondary: { main: dark.secondary, contrastText: dark.primaryText },
    background: { default: dark.background, paper: dark.paper },
    success: { main: dark.status.success },
    error: { main: dark.status.error },
    warning: { main: dark.status.warning },
  },
  components: { ...defaultDarkTheme.components, ...appBarOnPrimary },
};
