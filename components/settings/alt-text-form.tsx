import type { FormAction } from '@/lib/auth/action';
import { ToggleSettingForm } from './toggle-setting-form';

type Props = { requireAltText: boolean; canEdit: boolean; action: FormAction };

/** Settings → General: whether an image may be uploaded without alt text. */
export function AltTextForm({ requireAltText, canEdit, action }: Props) {
  return (
    <ToggleSettingForm
      name="requireAltText"
      checked={requireAltText}
      canEdit={canEdit}
      action={action}
      label="Require alt text on images"
      description="Every uploaded image must describe what it shows, for people using screen readers (the composer and the API refuse an image without it)."
      submitLabel="Save alt text rule"
    />
  );
}
