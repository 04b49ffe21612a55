/** A secret shown once after it was made (an API key, a webhook signing secret), with the message to copy it now. */
export function OneTimeSecret({ message, value, testId }: { message?: string; value: string; testId: string }) {
  return (
    <div role="status" className="rounded-md bg-emerald-50 p-4 text-sm text-emerald-900 ring-1 ring-emerald-200">
      <p className="font-semibold">{message}</p>
      <code className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono text-xs" data-testid={testId}>
        {value}
      </code>
    </div>
  );
}
