import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { Field } from './Field.tsx';

/**
 * The two optional fields a session and a run both take: metadata, any text handed back unchanged,
 * and the webhook URL told of its course. The hints say what each is for in that form.
 */
export function MetadataWebhookFields({
  register,
  errors,
  hints,
}: {
  register: { metadata: UseFormRegisterReturn<'metadata'>; webhook_url: UseFormRegisterReturn<'webhook_url'> };
  errors: { metadata?: FieldError; webhook_url?: FieldError };
  hints: { metadata: string; webhook_url: string };
}) {
  return (
    <>
      <Field label="Metadata" name="metadata" error={errors.metadata?.message} hint={hints.metadata}>
        {(p) => <textarea {...p} className="code" rows={3} spellCheck={false} {...register.metadata} />}
      </Field>
      <Field label="Webhook URL" name="webhook_url" error={errors.webhook_url?.message} hint={hints.webhook_url}>
        {(p) => (
          <input {...p} type="url" placeholder="https://example.com/hooks/browserdesk" {...register.webhook_url} />
        )}
      </Field>
    </>
  );
}
