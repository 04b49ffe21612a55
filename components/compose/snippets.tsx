'use client';

import { useId, useState, type KeyboardEvent, type RefObject } from 'react';

export type ComposeSnippet = { id: string; name: string; kind: string; text: string };

/** The `/word` being typed right before the caret, if any: where a snippet would go. */
function slashQuery(text: string, caret: number): { start: number; query: string } | null {
  const m = /(^|\s)\/([\p{L}\p{N}_-]{0,40})$/u.exec(text.slice(0, caret));
  return m ? { start: caret - m[2]!.length - 1, query: m[2]!.toLowerCase() } : null;
}

/**
 * Typing `/` in a text opens the snippets (filtered by what follows it): ↑/↓ choose, Enter or Tab inserts, Escape
 * closes. Returns the textarea's props and the list to render under it (a listbox the textarea points at).
 */
export function useSlashSnippets(params: {
  snippets: ComposeSnippet[];
  text: string;
  onChange: (text: string) => void;
  textarea: RefObject<HTMLTextAreaElement | null>;
}) {
  const listId = useId();
  const [open, setOpen] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const matches = open ? params.snippets.filter((s) => s.name.toLowerCase().includes(open.query)).slice(0, 8) : [];
  const expanded = matches.length > 0;

  const insert = (snippet: ComposeSnippet) => {
    const el = params.textarea.current;
    const caret = el?.selectionStart ?? params.text.length;
    const start = open?.start ?? caret;
    const next = params.text.slice(0, start) + snippet.text + params.text.slice(caret);
    params.onChange(next);
    setOpen(null);
    const at = start + snippet.text.length;
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at, at);
    });
  };

  return {
    textareaProps: {
      'aria-autocomplete': 'list' as const,
      'aria-expanded': expanded,
      'aria-controls': expanded ? listId : undefined,
      'aria-activedescendant': expanded ? `${listId}-${active}` : undefined,
      onSelect: (e: React.SyntheticEvent<HTMLTextAreaElement>) => {
        const el = e.currentTarget;
        const found = slashQuery(el.value, el.selectionStart);
        setOpen(found);
        if (found?.query !== open?.query) setActive(0);
      },
      onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => {
        if (!expanded) return;
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault();
          setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
        } else if (e.key === 'Enter' || e.key === 'Tab') {
          e.preventDefault();
          insert(matches[Math.min(active, matches.length - 1)]!);
        } else if (e.key === 'Escape') {
          e.preventDefault();
          setOpen(null);
        }
      },
    },
    list: expanded ? (
      <ul
        id={listId}
        role="listbox"
        aria-label="Snippets"
        className="mt-1 max-h-56 overflow-auto rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-slate-300"
      >
        {matches.map((s, i) => (
          <li
            key={s.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => {
              e.preventDefault(); // keep the caret in the textarea
              insert(s);
            }}
            className={`cursor-pointer px-3 py-1.5 ${i === active ? 'bg-indigo-600 text-white' : 'text-slate-800'}`}
          >
            <span className="font-medium">/{s.name}</span>
            <span className={`ml-2 truncate ${i === active ? 'text-indigo-100' : 'text-slate-500'}`}>
              {s.text.slice(0, 60)}
            </span>
          </li>
        ))}
      </ul>
    ) : null,
    insert,
  };
}

/** "Insert a snippet…": the same snippets from a picker (no typing needed), inserted at the caret. */
export function SnippetPicker(props: { snippets: ComposeSnippet[]; onInsert: (snippet: ComposeSnippet) => void }) {
  if (props.snippets.length === 0) return null;
  return (
    <label className="mt-2 flex items-center gap-2 text-xs text-slate-600">
      <span>Snippets (or type /):</span>
      <select
        value=""
        aria-label="Insert a snippet"
        onChange={(e) => {
          const snippet = props.snippets.find((s) => s.id === e.target.value);
          if (snippet) props.onInsert(snippet);
        }}
        className="rounded-md border border-slate-300 px-2 py-1 text-xs shadow-sm"
      >
        <option value="">Insert a snippet…</option>
        {props.snippets.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} ({s.kind})
          </option>
        ))}
      </select>
    </label>
  );
}
