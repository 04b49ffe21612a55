-- Custom migration: the delivery webhook trigger does nothing unless someone listens. It used to build its JSON
-- payload (with a subquery for the provider) for every status change and only then let webhook_emit find that the
-- workspace has no endpoint: two statements and a jsonb per delivery on the publisher's hot path for nobody.
-- It now asks first (one index probe on webhook_endpoints_workspace_idx); webhook_emit still checks in the same
-- transaction, so an endpoint added meanwhile changes nothing about what is written (docs/publishing.md#cost).
CREATE OR REPLACE FUNCTION deliveries_emit_webhook_event() RETURNS trigger AS $$
DECLARE
  v_type text := 'delivery.' || NEW.status::text;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM webhook_endpoints e WHERE e.workspace_id = NEW.workspace_id AND e.enabled AND v_type = ANY (e.events)
  ) THEN
    RETURN NULL;
  END IF;
  PERFORM webhook_emit(
    NEW.workspace_id,
    v_type,
    'delivery:' || NEW.id::text,
    jsonb_build_object(
      'deliveryId', NEW.id,
      'postId', NEW.post_id,
      'accountId', NEW.account_id,
      'provider', (SELECT a.provider FROM social_accounts a WHERE a.id = NEW.account_id),
      'part', NEW.part,
      'status', NEW.status,
      'previousStatus', OLD.status,
      'externalId', NEW.external_id,
      'externalUrl', NEW.external_url,
      'failureReason', NEW.failure_reason,
      'occurredAt', now()
    )
  );
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
