import { initials } from '@/lib/initials';

/** A round profile picture, or the person's initials when there is no photo. */
export function Avatar({ src, firstName, lastName, size = 64 }: { src: string | null; firstName: string; lastName?: string; size?: number }) {
  const style = { width: size, height: size, fontSize: size * 0.4 };
  if (src) return <img className="avatar" src={src} alt="" width={size} height={size} style={style} />;
  return (
    <span className="avatar avatar--initials" style={style} aria-hidden="true">
      {initials(firstName, lastName)}
    </span>
  );
}
