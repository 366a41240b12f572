import { useKidsStyle } from '@/data/hooks/use-kids-style';
import { StyleSync } from './style-sync';

/**
 * The signed-in person's style (the replica's record first: src/data/kids-style.ts). Loaded lazily
 * by app-providers.tsx once someone is signed in: the replica's hooks stay out of the entry chunk.
 */
export function SignedInStyleSync({ theme }: { theme: string }) {
  return <StyleSync style={useKidsStyle()} signedIn theme={theme} />;
}
