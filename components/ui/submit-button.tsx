import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Button } from './button';

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  pending: boolean;
  /** What the button says while the action runs ("Saving…"); it stays disabled until the answer is back. */
  pendingLabel: ReactNode;
  variant?: 'primary' | 'secondary' | 'danger';
};

/** A form's submit button: disabled while pending, so one click is one submission. */
export function SubmitButton({ pending, pendingLabel, disabled, children, ...props }: Props) {
  return (
    <Button type="submit" disabled={pending || disabled} {...props}>
      {pending ? pendingLabel : children}
    </Button>
  );
}
