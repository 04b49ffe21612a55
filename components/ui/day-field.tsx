/** A whole day (an `<input type="date">`) of a GET filter form, with its error under it (the report, analytics). */
export function DayField({
  name,
  label,
  value,
  error,
  idPrefix,
}: {
  name: string;
  label: string;
  value: string;
  error?: string;
  /** Keeps the error's id unique on the page. */
  idPrefix: string;
}) {
  const errorId = `${idPrefix}-${name}-error`;
  return (
    <label className="text-sm">
      <span className="block font-medium text-slate-700">{label}</span>
      <input
        type="date"
        name={name}
        defaultValue={value}
        aria-invalid={!!error}
        aria-describedby={error ? errorId : undefined}
        className="mt-1 rounded-md border border-slate-300 px-2 py-1"
      />
      {error && (
        <span id={errorId} role="alert" className="mt-1 block text-rose-700">
          {error}
        </span>
      )}
    </label>
  );
}
