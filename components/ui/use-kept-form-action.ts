'use client';

import { startTransition, useActionState, type FormEvent } from 'react';

/**
 * Like useActionState with `<form action>`, but the form keeps what was typed: React resets a form
 * after an action, which would wipe a token and a URL the user must only correct.
 */
export function useKeptFormAction<S>(action: (state: S | undefined, data: FormData) => Promise<S>) {
  const [state, dispatch, pending] = useActionState<S | undefined, FormData>(action, undefined);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    startTransition(() => dispatch(data));
  };
  return [state, onSubmit, pending] as const;
}
