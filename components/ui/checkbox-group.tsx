/** A group of checkboxes sharing one field name (a form's account list), its legend and its error. */
export function CheckboxGroup(props: {
  legend: string;
  name: string;
  options: { value: string; label: string }[];
  error?: string;
  className?: string;
}) {
  return (
    <fieldset className={props.className} aria-describedby={props.error ? `${props.name}-group-error` : undefined}>
      <legend className="text-sm font-medium text-slate-900">{props.legend}</legend>
      <div className="mt-1 flex flex-wrap gap-3">
        {props.options.map((o) => (
          <label key={o.value} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name={props.name} value={o.value} className="h-4 w-4" /> {o.label}
          </label>
        ))}
      </div>
      <p id={`${props.name}-group-error`} aria-live="polite" className="text-sm text-rose-700">
        {props.error}
      </p>
    </fieldset>
  );
}
