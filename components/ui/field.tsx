import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

export const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm disabled:bg-slate-100 aria-[invalid=true]:border-rose-500';

/**
 * What a control needs to point at its field's description and error (aria-describedby), so a screen
 * reader reads the error when the control is focused. `extra` ids come first (e.g. a live character count).
 */
export function fieldAria(
  id: string,
  { error, description, extra = [] }: { error?: string; description?: boolean; extra?: string[] },
) {
  const describedBy = [...extra, description ? `${id}-description` : null, `${id}-error`].filter(Boolean).join(' ');
  return { id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy };
}

/** A field's error region: always rendered (empty when fine) so aria-live announces an error when it appears. */
export function FieldError({
  id,
  error,
  className = 'mt-1 text-sm text-rose-700',
}: {
  id: string;
  error?: string;
  className?: string;
}) {
  return (
    <p id={`${id}-error`} aria-live="polite" className={className}>
      {error}
    </p>
  );
}

type FieldProps = {
  id: string;
  label: ReactNode;
  error?: string;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
};

/** Label, control (children, wired with fieldAria), description and error, in that order. */
export function Field({ id, label, error, description, className, children }: FieldProps) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      {children}
      {description && (
        <p id={`${id}-description`} className="mt-1 text-xs text-slate-500">
          {description}
        </p>
      )}
      <FieldError id={id} error={error} />
    </div>
  );
}

type Common = { id: string; label: ReactNode; error?: string; description?: ReactNode; fieldClassName?: string };

/** A labelled one-line input with its description and error. */
export function TextField({
  id,
  label,
  error,
  description,
  fieldClassName,
  className = '',
  ...props
}: InputHTMLAttributes<HTMLInputElement> & Common) {
  return (
    <Field id={id} label={label} error={error} description={description} className={fieldClassName}>
      <input
        {...fieldAria(id, { error, description: Boolean(description) })}
        className={`${inputClass} ${className}`}
        {...props}
      />
    </Field>
  );
}

/** A labelled textarea with its description and error. */
export function TextAreaField({
  id,
  label,
  error,
  description,
  fieldClassName,
  className = '',
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & Common) {
  return (
    <Field id={id} label={label} error={error} description={description} className={fieldClassName}>
      <textarea
        {...fieldAria(id, { error, description: Boolean(description) })}
        className={`${inputClass} ${className}`}
        {...props}
      />
    </Field>
  );
}
