import { useWatch } from 'react-hook-form';
import { normaliseBuCodes } from './templateOrder';
import { useBusinessUnitCodes } from './queries';
import { UnknownCodesWarning } from './UnknownCodesWarning';

/**
 * The allow and deny codes that name no live business unit, as typed, before the save. A caller who may not list
 * business units cannot be told: the codes the server found unknown at the last save are shown instead.
 */
export const LiveUnknownCodes = ({ saved }: { saved: readonly string[] | null | undefined }) => {
  const units = useBusinessUnitCodes();
  const allow: unknown = useWatch({ name: 'allow_business_unit' });
  const deny: unknown = useWatch({ name: 'deny_business_unit' });
  const listOf = (v: unknown): readonly unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
  const typed = normaliseBuCodes([...listOf(allow), ...listOf(deny)]);
  const codes = units.ready ? [...new Set(units.unknownOf(typed))] : saved;
  return <UnknownCodesWarning codes={codes} />;
};
