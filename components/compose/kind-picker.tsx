import { TextField } from '@/components/ui/field';
import type { ComposeDraft } from './use-compose-draft';

const KIND_LABEL = { post: 'Post', reply: 'Reply', dm: 'Direct message' } as const;

type Props = {
  draft: Pick<ComposeDraft, 'kind' | 'inReplyTo' | 'recipient'>;
  errors: { inReplyTo?: string; recipient?: string };
  update: (patch: Partial<ComposeDraft>) => void;
};

/** Post, reply or direct message, with the field the kind needs (the post it replies to, the recipient). */
export function KindPicker({ draft, errors, update }: Props) {
  return (
    <>
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Kind</legend>
        <div className="mt-2 flex gap-4 text-sm">
          {(['post', 'reply', 'dm'] as const).map((k) => (
            <label key={k} className="flex items-center gap-2">
              <input
                type="radio"
                name="kind"
                value={k}
                checked={draft.kind === k}
                onChange={() => update({ kind: k })}
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
