import { Icon } from '@/components/icon';
import type { EntryFile } from '@/contract/entries';
import { useEntryFile } from '@/entries/hooks/use-entry-file';

/**
 * A reward's picture from the encrypted cache (cached ahead after each pull, else fetched once
 * online), or a star when it has none or it is not on this device yet. Decorative: the reward's
 * name is always written beside it.
 */
export function RewardPicture({ image, size = 'card' }: { image: EntryFile | null; size?: 'card' | 'large' | 'small' }) {
  const url = useEntryFile(image?.id ?? null, 'reward');
  return (
    <span className={`reward-picture reward-picture--${size}`} aria-hidden="true">
      {url ? <img src={url} alt="" className="reward-picture__img" /> : <Icon name="rewards" size={size === 'small' ? 28 : 44} />}
    </span>
  );
}
