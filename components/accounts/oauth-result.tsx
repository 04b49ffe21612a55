/** The outcome of a sign-in connect, shown once on return to /accounts (the message is the server's, from a table). */
export function OAuthResult({ ok, message }: { ok: boolean; message: string }) {
  return (
    <p
      role="status"
      aria-live="polite"
      className={`rounded-md px-4 py-3 text-sm ring-1 ring-inset ${ok ? 'bg-emerald-50 text-emerald-800 ring-emerald-600/20' : 'bg-rose-50 text-rose-800 ring-rose-600/20'}`}
    >
      {message}
    </p>
  );
}
