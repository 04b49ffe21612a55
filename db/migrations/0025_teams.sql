CREATE TABLE "workspace_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" "role" NOT NULL,
	"token_hash" text NOT NULL,
	"token_version" integer DEFAULT 1 NOT NULL,
	"invited_by_user_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by_user_id" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_invitations_token_hash_uq" UNIQUE("token_hash"),
	CONSTRAINT "workspace_invitations_email_lowercase_ck" CHECK ("workspace_invitations"."email" = lower("workspace_invitations"."email"))
);
--> statement-breakpoint
ALTER TABLE "notification_sends" ADD COLUMN "invitation_id" uuid;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_invited_by_user_id_users_id_fk" FOREIGN KEY ("invited_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_accepted_by_user_id_users_id_fk" FOREIGN KEY ("accepted_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_invitations_open_uq" ON "workspace_invitations" USING btree ("workspace_id","email") WHERE "workspace_invitations"."accepted_at" is null and "workspace_invitations"."revoked_at" is null;--> statement-breakpoint
ALTER TABLE "notification_sends" ADD CONSTRAINT "notification_sends_invitation_id_workspace_invitations_id_fk" FOREIGN KEY ("invitation_id") REFERENCES "public"."workspace_invitations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A workspace always keeps an admin: demoting or removing its last admin fails here, whatever the caller checked.
-- The workspace row is locked first, so two admins demoting (or removing) each other at once are serialised and the
-- second one counts the first one's change. A workspace being deleted (its row gone: the cascade) is exempt.
CREATE FUNCTION memberships_keep_an_admin() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.role::text = 'admin' AND NEW.workspace_id = OLD.workspace_id THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM workspaces WHERE id = OLD.workspace_id FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM memberships WHERE workspace_id = OLD.workspace_id AND role::text = 'admin') THEN
    RAISE EXCEPTION 'a workspace keeps at least one admin'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'memberships_one_admin_ck', TABLE = 'memberships';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_keep_an_admin AFTER UPDATE OR DELETE ON memberships
  FOR EACH ROW WHEN (OLD.role::text = 'admin') EXECUTE FUNCTION memberships_keep_an_admin();
