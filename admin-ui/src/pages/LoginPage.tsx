import { Login, LoginForm, useTranslate } from 'react-admin';
import { CardContent, Typography } from '@mui/material';

export const LoginPage = () => {
  const translate = useTranslate();
  return (
    <Login>
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="h6" align="center" data-testid="login-title">
          {translate('app.title')}
        </Typography>
        <Typography variant="body2" align="center" color="text.secondary">
          {translate('app.login.subtitle')}
        </Typography>
      </CardContent>
      <LoginForm />
    </Login>
  );
};
