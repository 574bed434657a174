import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { MembershipImportMode, MembershipImportResult } from '../types';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { isAbortError, statusOf } from '../lib/problems';
import { useMembershipRefresh } from '../components/members/useMembershipRefresh';
import { MAX_IMPORT_BYTES, changingRows, countDataRows } from './importFile';

/** A call under way: a check (dry run) or an apply, with the upload's progress and the file's rough row count. */
export type ImportBusy = { kind: 'check' | 'apply'; loaded: number; total: number; rows: number } | null;

/** Where the last call failed: the file itself (400, 413: the server's words), or the way to the server. */
export type ImportFailure = { kind: 'refused' | 'failed' | 'unreachable'; message: string; retry: () => void } | null;

/**
 * The import screen's state: the chosen file, the plan its check answered, the result of applying it, the call under
 * way and the last failure. The same file is sent again to apply, so the server plans it afresh under its locks.
 */
export function useMemberImport() {
  const t = useTranslate();
  const dataProvider = useAppDataProvider();
  const refreshMemberships = useMembershipRefresh();
  const [file, setFile] = useState<File | null>(null);
  const [plan, setPlan] = useState<MembershipImportResult | null>(null);
  const [result, setResult] = useState<MembershipImportResult | null>(null);
  const [busy, setBusy] = useState<ImportBusy>(null);
  const [failure, setFailure] = useState<ImportFailure>(null);
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
      // The members cards a visit opens next read what the import wrote.
      if (answer.applied) void refreshMemberships();
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
  // With refused rows the apply writes the valid ones: the screen has said so before anyone confirms.
  const applyMode: MembershipImportMode = refused > 0 ? 'valid_rows' : 'all_or_nothing';

  return {
    file,
    plan,
    result,
    busy,
    failure,
    inputRef,
    refused,
    changes: plan ? changingRows(plan) : 0,
    tooBig: file !== null && file.size > MAX_IMPORT_BYTES,
    /** Percent of the upload sent, while it is being sent. */
    uploaded: busy && busy.total > 0 && busy.loaded < busy.total ? Math.round((busy.loaded / busy.total) * 100) : null,
    choose,
    reset,
    check: () => file && void run('check', file, 'all_or_nothing'),
    apply: () => file && void run('apply', file, applyMode),
  };
}

export type MemberImportState = ReturnType<typeof useMemberImport>;
