import { TextField } from '@/components/ui/field';
import type { ComposeDraft } from './use-compose-draft';

const KIND_LABEL = { post: 'Post', reply: 'Reply', dm: 'Direct message', thread: 'Thread' } as const;

type Props = {
  draft: Pick<ComposeDraft, 'kind' | 'inReplyTo' | 'recipient' | 'text' | 'parts'>;
  errors: { inReplyTo?: string; recipient?: string };
  update: (patch: Partial<ComposeDraft>) => void;
};

/** Post, reply, direct message or thread, with the field the kind needs (the post it replies to, the recipient). */
/** Turning a post into a thread keeps what was written: it becomes the first part (when that is still empty). */
function startThread(draft: Props['draft']): Partial<ComposeDraft> {
  const [first, ...rest] = draft.parts;
  if (!first || first.text || !draft.text) return { kind: 'thread' };
  return { kind: 'thread', parts: [{ ...first, text: draft.text }, ...rest] };
}

export function KindPicker({ draft, errors, update }: Props) {
  return (
    <>
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Kind</legend>
        <div className="mt-2 flex gap-4 text-sm">
          {(['post', 'reply', 'dm', 'thread'] as const).map((k) => (
            <label key={k} className="flex items-center gap-2">
              <input
                type="radio"
                name="kind"
                value={k}
                checked={draft.kind === k}
                onChange={() => update(k === 'thread' ? startThread(draft) : { kind: k })}
              />
              {KIND_LABEL[k]}
            </label>
          ))}
        </div>
      </fieldset>
      {draft.kind === 'reply' && (
        <TextField
          id="inReplyTo"
          name="inReplyTo"
          label="Replying to (post id or link)"
          value={draft.inReplyTo}
          error={errors.inReplyTo}
          onChange={(e) => update({ inReplyTo: e.target.value })}
        />
      )}
      {draft.kind === 'dm' && (
        <TextField
          id="recipient"
          name="recipient"
          label="Recipient handle"
          value={draft.recipient}
          error={errors.recipient}
          onChange={(e) => update({ recipient: e.target.value })}
        />
      )}
    </>
  );
}
