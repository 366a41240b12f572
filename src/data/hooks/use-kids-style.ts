import type { KidsStyle } from '@/contract/residents';
import { accountKidsStyle, rememberedKidsStyle, resolveKidsStyle } from '../kids-style';
import { useAccount } from '../session-store';
import { useResidentDetails } from './use-resident-details';

/** The kids_app style to show now (src/data/kids-style.ts `resolveKidsStyle` says which source wins). */
export function useKidsStyle(): KidsStyle {
  const account = useAccount();
  const details = useResidentDetails();
  return resolveKidsStyle({
    signedIn: account !== null,
    replicated: details.data?.app_settings?.kids_style,
    account: accountKidsStyle(account),
    remembered: rememberedKidsStyle(),
  });
}
