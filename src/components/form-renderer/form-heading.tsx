import type { FormField } from '@/contract/forms';

type HeadingField = Extract<FormField, { kind: 'heading' }>;

/** A heading field: section at the given level, group one below it (never past h6); its help text follows it. */
export function FormHeading({ field, level }: { field: HeadingField; level: 2 | 3 }) {
  const n = Math.min(6, field.level === 'group' ? level + 1 : level);
  const Tag = `h${n}` as 'h2' | 'h3' | 'h4';
  return (
    <>
      <Tag className={`form-heading form-heading--${field.level}`}>{field.label}</Tag>
      {field.help_text ? <p className="field__hint form-heading__help">{field.help_text}</p> : null}
    </>
  );
}
