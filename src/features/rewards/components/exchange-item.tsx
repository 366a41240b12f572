import { useRef, useState } from 'react';
import { RelativeTime } from '@/components/relative-time';
import { useToast } from '@/components/use-toast';
import { rewardMessages } from '@/contract/rewards';
import type { RewardExchangeDoc } from '@/data/replica/types';
import { removeExchange } from '../actions/remove-exchange';
import { retryExchange } from '../actions/retry-exchange';
import { pointsText, rewardTexts } from '../reward-texts';
import { RewardPicture } from './reward-picture';

type Shown = 'waiting' | 'failed' | 'pending' | 'approved' | 'denied';

/** What a history item is, for the person: this device's waiting or refused swap, or the server's status. */
export function shownStatus(item: Pick<RewardExchangeDoc, 'sync_state' | 'status'>): Shown {
  if (item.sync_state === 'pending') return 'waiting';
  if (item.sync_state === 'failed') return 'failed';
  return item.status;
}

const STATUS_TEXT: Record<Shown, string> = {
  waiting: rewardTexts.waitingToSend,
  failed: rewardTexts.notSent,
  pending: rewardTexts.waitingForStaff,
  approved: rewardTexts.approved,
  denied: rewardTexts.denied,
};

const STATUS_MARK: Record<Shown, string> = { waiting: '…', failed: '!', pending: '…', approved: '✓', denied: '✕' };

/** A points adjustment with its sign (a real minus sign). */
const signed = (n: number): string => (n > 0 ? `+${pointsText(n)}` : n < 0 ? `−${pointsText(-n)}` : pointsText(0));

/** The effect on the balance, in words. */
function adjustmentText(item: RewardExchangeDoc, shown: Shown): string {
  if (shown === 'failed') return 'No points taken';
  if (shown === 'denied') return `Points given back: +${pointsText(item.refunded_points || item.points)}`;
  return `Points: ${signed(item.points_adjustment || -item.points)}`;
}

/**
 * One swap in the history: the reward (picture, name), when, its status in words with a mark
 * (never colour alone), its points adjustment, staff's note; a refused swap of this device says
 * why (SPEC §8) and offers Try again (a new request) and Remove.
 */
export function ExchangeItem({ item, onRemoved }: { item: RewardExchangeDoc; onRemoved: () => void }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const title = useRef<HTMLHeadingElement>(null);
  const shown = shownStatus(item);
  const titleId = `exchange-${item.id}-title`;

  const retry = async () => {
    if (busy) return;
    setBusy(true);
    const result = await retryExchange(item.id).catch(() => ({ ok: false as const, message: rewardMessages.redeemFailed, errors: {} }));
    setBusy(false);
    if (!result.ok) {
      const reason = Object.values(result.errors)[0]?.[0];
      toast.error(reason && reason !== result.message ? `${result.message} ${reason}.` : result.message);
      return;
    }
    // Sent again, the swap is waiting: Try again and Remove go, so the focus stays on this swap.
    title.current?.focus();
  };
  const remove = async () => {
    if (busy) return;
    setBusy(true);
    const removed = await removeExchange(item.id).catch(() => false);
    setBusy(false);
    if (removed) onRemoved();
  };

  return (
    <article className={`exchange exchange--${shown}`} aria-labelledby={titleId}>
      <RewardPicture image={item.reward.image} size="small" />
      <div className="exchange__body">
        <h3 id={titleId} className="exchange__title" tabIndex={-1} ref={title}>
          {item.reward.name}
        </h3>
        <p className="exchange__when">
          Asked <RelativeTime iso={item.created_at} />
        </p>
        <p className={`exchange__status exchange__status--${shown}`}>
          <span aria-hidden="true" className="exchange__mark">
            {STATUS_MARK[shown]}
          </span>{' '}
          {STATUS_TEXT[shown]}
        </p>
        <p className="exchange__points">{adjustmentText(item, shown)}</p>
        {item.note ? <p className="exchange__note">Staff said: “{item.note}”</p> : null}
        {shown === 'failed' ? (
          <>
            <p className="rewards__error">{item.sync_message || rewardMessages.redeemFailed}</p>
            <div className="exchange__actions">
              {/* aria-disabled and a guard, not disabled: a disabled button drops the keyboard focus. */}
              <button type="button" className="button button--primary" aria-disabled={busy || undefined} onClick={() => void retry()}>
                Try again<span className="visually-hidden"> to swap for {item.reward.name}</span>
              </button>
              <button type="button" className="button button--secondary" aria-disabled={busy || undefined} onClick={() => void remove()}>
                Remove<span className="visually-hidden"> the swap for {item.reward.name}</span>
              </button>
            </div>
          </>
        ) : null}
      </div>
    </article>
  );
}
