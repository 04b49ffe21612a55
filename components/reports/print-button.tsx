'use client';

/** The browser's print dialog: the page's print styles make the report a clean PDF ("Save as PDF"). */
export function PrintButton() {
  return (
    <button
      type="button"
      onClick={() => window.print()}
      className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-500"
    >
      Print or save as PDF
    </button>
  );
}
