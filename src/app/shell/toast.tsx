import { SnackbarContent, useSnackbar, type CustomContentProps } from 'notistack';
import { forwardRef } from 'react';
import { Icon } from '@/components/icon';

/** Our toast: AA colours from the theme, a real Dismiss button, errors as alerts. */
export const Toast = forwardRef<HTMLDivElement, CustomContentProps>(function Toast({ id, message, variant, style }, ref) {
  const { closeSnackbar } = useSnackbar();
  return (
    <SnackbarContent ref={ref} style={style} className={`toast toast--${variant}`} role={variant === 'error' ? 'alert' : 'status'}>
      <span className="toast__message">{message}</span>
      <button type="button" className="toast__close" aria-label="Dismiss" onClick={() => closeSnackbar(id)}>
        <Icon name="close" size={20} />
      </button>
    </SnackbarContent>
  );
});
