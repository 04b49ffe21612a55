-- New inbox messages (kind 'inbox', docs/inbox.md#notifications) follow each member's inbox_mode, every other
-- notification their email_mode: the fan-out of 0017, the mode picked per kind.
CREATE OR REPLACE FUNCTION notifications_fan_out() RETURNS trigger AS $$
DECLARE
  -- Milliseconds, as JavaScript dates hold them: a sender's clock compares with these exactly.
  v_now timestamptz := date_trunc('milliseconds', now());
  v_day text := to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD');
BEGIN
  INSERT INTO notification_sends (workspace_id, key, channel, notification_id, user_id, digest_day, status, next_attempt_at)
  SELECT NEW.workspace_id, 'email:' || NEW.id::text || ':' || m.user_id::text, 'email', NEW.id, m.user_id,
    CASE WHEN x.mode = 'digest' THEN v_day END,
    CASE WHEN x.mode = 'digest' THEN 'digest' ELSE 'pending' END::notification_send_status,
    CASE WHEN x.mode = 'digest' THEN NULL ELSE v_now END
  FROM memberships m
  LEFT JOIN notification_preferences p ON p.workspace_id = m.workspace_id AND p.user_id = m.user_id
  CROSS JOIN LATERAL (
    SELECT coalesce(CASE WHEN NEW.kind = 'inbox' THEN p.inbox_mode ELSE p.email_mode END, 'immediately') AS mode
  ) x
  WHERE m.workspace_id = NEW.workspace_id
    AND (NEW.user_id IS NULL OR m.user_id = NEW.user_id)
    -- An approval request is for those who can decide it.
    AND (NEW.kind <> 'approval_requested' OR m.role = 'admin')
    AND x.mode <> 'off'
  ON CONFLICT (key) DO NOTHING;
  -- Slack is one channel for the workspace: an approval request written once per admin is posted once.
  INSERT INTO notification_sends (workspace_id, key, channel, notification_id, status, next_attempt_at)
  SELECT NEW.workspace_id,
    CASE WHEN NEW.kind = 'approval_requested'
      THEN 'slack:approval_requested:' || NEW.post_id::text || ':' || split_part(NEW.incident_key, ':user:', 1)
      ELSE 'slack:' || NEW.id::text END,
    'slack', NEW.id, 'pending', v_now
  FROM slack_webhooks s WHERE s.workspace_id = NEW.workspace_id
  ON CONFLICT (key) DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
