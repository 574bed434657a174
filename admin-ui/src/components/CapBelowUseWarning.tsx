import { useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { Alert } from '@mui/material';

/**
 * Said under a licence cap while it is being edited below what the record already uses, before the save: the save
 * is allowed (nothing is taken away), but the card would then read "2 of 1 licensed" and nothing new can be added.
 */
export const CapBelowUseWarning = ({
  source,
  inUse,
  message,
}: {
  source: string;
  inUse?: number | null;
  message: string;
}) => {
  const translate = useTranslate();
  const value: unknown = useWatch({ name: source });
  const cap = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : null;
  if (cap === null || !Number.isFinite(cap) || !inUse || cap >= inUse) return null;
  return (
    <Alert severity="warning" sx={{ mt: 1 }} data-testid={`cap-below-use-${source}`}>
      {translate(message, { count: inUse, max: cap, smart_count: inUse })}
    </Alert>
  );
};
