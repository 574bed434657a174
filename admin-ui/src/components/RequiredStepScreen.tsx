import type { ReactNode } from 'react';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';

/**
 * The whole screen of a step an account must take before anything else opens (a new password, a second factor): a
 * card in the middle with its title, what the step asks, and a way out by signing out.
 */
export const RequiredStepScreen = (props: {
  testId: string;
  maxWidth: number;
  title: string;
  signOutLabel: string;
  onSignOut: () => void;
  children: ReactNode;
}) => (
  <Box
    component="main"
    sx={{
      minHeight: '100vh',
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      p: 2,
      bgcolor: 'background.default',
    }}
  >
    <Card sx={{ width: '100%', maxWidth: props.maxWidth }} data-testid={props.testId}>
      <CardContent>
        <Typography variant="h5" component="h1" gutterBottom>
          {props.title}
        </Typography>
        {props.children}
        <Button sx={{ mt: 2 }} onClick={props.onSignOut}>
          {props.signOutLabel}
        </Button>
      </CardContent>
    </Card>
  </Box>
);
