import { useEffect, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { Confirm, Title, useRequireAccess, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  Link as MuiLink,
  Stack,
  Typography,
} from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import DownloadIcon from '@mui/icons-material/Download';
import type { MembershipImportMode, MembershipImportResult } from '../types';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { downloadText } from '../lib/csv';
import { isAbortError, statusOf } from '../lib/problems';
import { auditLogOfImport } from '../audit-log';
import { memberImportScreenMessages } from './messages';
import { ImportPlanTable } from './ImportPlanTable';
import { MAX_IMPORT_BYTES, changingRows, countDataRows, resultCsv, resultFileName, templateCsv } from './importFile';

const MODULES = [memberImportScreenMessages];

type Busy = { kind: 'check' | 'apply'; loaded: number; total: number; rows: number } | null;

/** Where the last call failed: the file itself (400, 413: the server's words), or the way to the server. */
type Failure = { kind: 'refused' | 'failed' | 'unreachable'; message: string; retry: () => void } | null;

const formatSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} kB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// The downloaded template, as lines on the screen.
const EXAMPLE = templateCsv().replace(/\r\n/g, '\n').trimEnd();

/**
 * The membership CSV import: choose a file, check it (a dry run), review the plan, apply it, and see what was written.
 * The same file is sent again to apply, so the server plans it afresh under its locks; the result shown is that plan.
 */
const MemberImportScreen = () => {
  const t = useTranslate();
  const dataProvider = useAppDataProvider();
  useRequireAccess({ action: 'edit', resource: 'clusters' });
  const [file, setFile] = useState<File | null>(null);
  const [plan, setPlan] = useState<MembershipImportResult | null>(null);
  const [result, setResult] = useState<MembershipImportResult | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [failure, setFailure] = useState<Failure>(null);
  const [confirming, setConfirming] = useState(false);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  // Leaving the screen cancels an upload under way, so its answer does not land on a screen that is gone.
  useEffect(() => () => abortRef.current?.abort(), []);

  const reset = () => {
    abortRef.current?.abort();
    setFile(null);
    setPlan(null);
    setResult(null);
    setBusy(null);
    setFailure(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    setFile(chosen);
    setPlan(null);
    setResult(null);
    setFailure(
      chosen.size > MAX_IMPORT_BYTES
        ? { kind: 'refused', message: t('member_import.too_big'), retry: () => undefined }
        : null,
    );
  };

  const run = async (kind: 'check' | 'apply', chosen: File, mode: MembershipImportMode) => {
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    setFailure(null);
    // A rough count for "Checking N rows…"; a file that cannot be read here is still the server's to judge.
    const rows = await Promise.resolve()
      .then(() => chosen.text())
      .then(countDataRows, () => 0);
    setBusy({ kind, loaded: 0, total: chosen.size, rows });
    try {
      const answer = await dataProvider.importMemberships(chosen, {
        dryRun: kind === 'check',
        mode,
        signal: controller.signal,
        onProgress: (loaded, total) => setBusy((b) => (b ? { ...b, loaded, total } : b)),
      });
      if (controller.signal.aborted) return;
      if (kind === 'check') setPlan(answer);
      else setResult(answer);
    } catch (error) {
      if (isAbortError(error) || controller.signal.aborted) return;
      const status = statusOf(error);
      const message = error instanceof Error ? error.message : '';
      const retry = () => void run(kind, chosen, mode);
      if (typeof status !== 'number')
        setFailure({ kind: 'unreachable', message: t('member_import.unreachable'), retry });
      else setFailure({ kind: status === 400 || status === 413 ? 'refused' : 'failed', message, retry });
    } finally {
      if (abortRef.current === controller) setBusy(null);
    }
  };

  const refused = plan?.summary.refused ?? 0;
  const changes = plan ? changingRows(plan) : 0;
  const applyMode: MembershipImportMode = refused > 0 ? 'valid_rows' : 'all_or_nothing';
  const tooBig = file !== null && file.size > MAX_IMPORT_BYTES;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!busy && !result) choose(e.dataTransfer.files[0]);
  };

  const uploaded =
    busy && busy.total > 0 && busy.loaded < busy.total ? Math.round((busy.loaded / busy.total) * 100) : null;

  return (
    <Box sx={{ mt: 2 }} data-testid="member-import">
      <Title title={t('app.member_import.title')} />
      <Stack spacing={2}>
        <Card>
          <CardContent>
            <Typography variant="h6" gutterBottom>
              {t('member_import.step_choose')}
            </Typography>
            <Typography variant="body2" sx={{ mb: 2 }}>
              {t('member_import.intro')}
            </Typography>
            <Typography variant="subtitle2">{t('member_import.columns_title')}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('member_import.columns_help')}
            </Typography>
            <Typography variant="subtitle2">{t('member_import.example_title')}</Typography>
            <Box
              component="pre"
              sx={{
                fontFamily: 'monospace',
                fontSize: 13,
                bgcolor: 'action.hover',
                p: 1,
                borderRadius: 1,
                overflowX: 'auto',
                mt: 0.5,
              }}
            >
              {EXAMPLE}
            </Box>
            <MuiLink
              component="button"
              type="button"
              underline="hover"
              onClick={() => downloadText('members-template.csv', templateCsv())}
              data-testid="import-template"
            >
              {t('member_import.template')}
            </MuiLink>

            <Box
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              data-testid="import-drop-zone"
              sx={{
                mt: 2,
                p: 3,
                border: '2px dashed',
                borderColor: dragging ? 'primary.main' : 'divider',
                borderRadius: 1,
                textAlign: 'center',
              }}
            >
              <Typography color="text.secondary" sx={{ mb: 1 }}>
                {t('member_import.drop_here')}
              </Typography>
              <Button
                variant="outlined"
                component="label"
                startIcon={<UploadFileIcon />}
                disabled={busy !== null || result !== null}
              >
                {t('member_import.choose')}
                <input
                  ref={inputRef}
                  type="file"
                  accept=".csv,text/csv"
                  hidden
                  aria-label={t('member_import.file_input')}
                  data-testid="import-file-input"
                  onChange={(e: ChangeEvent<HTMLInputElement>) => choose(e.target.files?.[0])}
                />
              </Button>
              <Typography
                sx={{ mt: 1 }}
                data-testid="import-file-name"
                color={file ? 'text.primary' : 'text.secondary'}
              >
                {file
                  ? t('member_import.file_chosen', { name: file.name, size: formatSize(file.size) })
                  : t('member_import.no_file')}
              </Typography>
            </Box>

            {failure && (
              <Alert
                severity="error"
                sx={{ mt: 2 }}
                data-testid={failure.kind === 'unreachable' ? 'error-state' : 'import-error'}
                action={
                  failure.kind === 'refused' ? undefined : (
                    <Button color="inherit" size="small" onClick={failure.retry}>
                      {t('member_import.retry')}
                    </Button>
                  )
                }
              >
                <AlertTitle>
                  {t(failure.kind === 'refused' ? 'member_import.file_refused' : 'member_import.failed')}
                </AlertTitle>
                {failure.message}
              </Alert>
            )}

            {busy && (
              <Box sx={{ mt: 2 }} data-testid="import-progress">
                {uploaded !== null ? (
                  <>
                    <LinearProgress variant="determinate" value={uploaded} />
                    <Typography variant="body2" sx={{ mt: 0.5 }}>
                      {t('member_import.uploading', { percent: uploaded })}
                    </Typography>
                  </>
                ) : (
                  <>
                    <LinearProgress />
                    <Typography variant="body2" sx={{ mt: 0.5 }}>
                      {busy.kind === 'apply'
                        ? t('member_import.applying')
                        : busy.rows > 0
                          ? t('member_import.checking_rows', { smart_count: busy.rows })
                          : t('member_import.checking')}
                    </Typography>
                  </>
                )}
              </Box>
            )}

            {!plan && !result && (
              <Box sx={{ mt: 2 }}>
                <Button
                  variant="contained"
                  disabled={!file || tooBig || busy !== null}
                  onClick={() => file && void run('check', file, 'all_or_nothing')}
                  data-testid="import-check"
                >
                  {t('member_import.check')}
                </Button>
              </Box>
            )}
          </CardContent>
        </Card>

        {plan && !result && (
          <Card data-testid="import-plan">
            <CardContent>
              <Typography variant="h6" gutterBottom>
                {t('member_import.step_review')}
              </Typography>
              <ImportPlanTable result={plan} t={t} />
              {changes === 0 ? (
                <Alert severity="info" sx={{ mt: 2 }}>
                  {t('member_import.nothing_to_apply')}
                </Alert>
              ) : (
                refused > 0 && (
                  <Alert severity="warning" sx={{ mt: 2 }} data-testid="import-refused-explained">
                    {t('member_import.refused_explained', { smart_count: refused })}
                  </Alert>
                )
              )}
              <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
                <Button
                  variant="contained"
                  disabled={changes === 0 || busy !== null}
                  onClick={() => setConfirming(true)}
                  data-testid="import-apply"
                >
                  {t(refused > 0 ? 'member_import.apply_valid_rows' : 'member_import.apply')}
                </Button>
                <Button onClick={reset} disabled={busy?.kind === 'apply'} data-testid="import-start-over">
                  {t('member_import.start_over')}
                </Button>
              </Stack>
              <Confirm
                isOpen={confirming}
                title="member_import.confirm_title"
                content={refused > 0 ? 'member_import.confirm_content_refused' : 'member_import.confirm_content'}
                translateOptions={{ smart_count: changes }}
                confirm={refused > 0 ? 'member_import.apply_valid_rows' : 'member_import.apply'}
                onConfirm={() => {
                  setConfirming(false);
                  if (file) void run('apply', file, applyMode);
                }}
                onClose={() => setConfirming(false)}
              />
            </CardContent>
          </Card>
        )}

        {result && (
          <Card data-testid="import-result">
            <CardContent>
              <Typography variant="h6" gutterBottom>
                {t('member_import.step_result')}
              </Typography>
              <Alert severity={result.applied ? 'success' : 'warning'} sx={{ mb: 2 }} data-testid="import-applied">
                {result.applied
                  ? t('member_import.applied', { smart_count: changingRows(result) })
                  : t('member_import.not_applied')}
              </Alert>
              <ImportPlanTable result={result} t={t} />
              <Stack direction="row" spacing={2} useFlexGap alignItems="center" sx={{ mt: 2, flexWrap: 'wrap' }}>
                <Button
                  variant="outlined"
                  startIcon={<DownloadIcon />}
                  onClick={() => downloadText(resultFileName(result), resultCsv(result))}
                  data-testid="import-download-result"
                >
                  {t('member_import.download_result')}
                </Button>
                {result.applied && (
                  <MuiLink
                    component={Link}
                    to={auditLogOfImport(result.import_id)}
                    underline="hover"
                    data-testid="import-audit-link"
                  >
                    {t('member_import.audit_link')}
                  </MuiLink>
                )}
                <Box sx={{ flex: 1 }} />
                <Button onClick={reset} data-testid="import-start-over">
                  {t('member_import.start_over')}
                </Button>
              </Stack>
            </CardContent>
          </Card>
        )}
      </Stack>
    </Box>
  );
};

export const MemberImport = () => (
  <ScreenMessages modules={MODULES}>
    <MemberImportScreen />
  </ScreenMessages>
);
