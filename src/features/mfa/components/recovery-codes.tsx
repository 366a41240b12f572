import { useEffect } from 'react';
import { PageHeading } from '@/components/page-heading';
import { useToast } from '@/components/use-toast';
import { focusHeading } from '@/lib/focus-heading';

/** Shown once, right after the first method is confirmed: copy, download (a local .txt) and continue. */
export function RecoveryCodes({ codes, onDone, busy }: { codes: readonly string[]; onDone: () => void; busy?: boolean }) {
  const toast = useToast();
  useEffect(focusHeading, []);
  const text = `Hearth recovery codes\nEach code works once. Keep them somewhere safe and private.\n\n${codes.join('\n')}\n`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast.success('Codes copied');
    } catch {
      toast.error('Copying did not work here. Please download the codes or write them down.');
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'hearth-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <div className="auth-card auth-card--wide">
      <PageHeading>Save your recovery codes</PageHeading>
      <p className="lead">
        If you lose your phone or cannot get a code, you can sign in with one of these. Each code works once. We will not
        show them again, so save them now and keep them private.
      </p>
      <ol className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="actions">
        <button type="button" className="button button--secondary" onClick={copy}>
          Copy codes
        </button>
        <button type="button" className="button button--secondary" onClick={download}>
          Download codes
        </button>
      </div>
      <button type="button" className="button button--primary button--block" onClick={onDone} disabled={busy}>
        I have saved my codes
      </button>
    </div>
  );
}
