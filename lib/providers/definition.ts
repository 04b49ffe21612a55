import type { z } from 'zod';
import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import type { Rule } from './classify';
import type { ProviderTransport } from './transport';
import type { AccountCredentials, Classification, PostKind, ProviderClient, ProviderName } from './types';

/**
 * What the browser may know of a network (labels, limits, connect fields): no server code, so client
 * components import it through lib/providers/catalog.ts.
 */
export type ProviderMeta = {
  name: ProviderName;
  label: string;
  /** One sentence for people: what "exactly once" rests on for this network (docs/networks.md, accounts page). */
  exactlyOnce: string;
  /** What every account of this network should know, shown beside it on the Accounts page (TikTok's audit rule). */
  accountNote?: string;
  /** The platform's text limit, counted by `countText`. */
  textLimit: number;
  countText: (text: string) => number;
  /** `required`: the network publishes nothing without an image or a video (Instagram). */
  media: { maxPerPost: number; maxBytes: number; types: readonly string[]; video?: VideoLimits; required?: boolean };
  /**
   * Ways to publish a post beyond the default, chosen per account (`formats` in the API, deliveries.format):
   * Instagram's `story`. None: the network publishes what is attached one way.
   */
  formats?: readonly { id: string; label: string; help: string }[];
  /** How the composer's "Post as" names the default (no format chosen); absent: Instagram's carousel-or-Reel wording. */
  formatDefaultHelp?: string;
  /**
   * The choices this network asks for per post (`options: { [accountId]: {…} }` in the API, deliveries.options), as a
   * zod schema run on each target account's options (`{}` when none are given, so a required choice is refused when
   * the post is made): TikTok's privacy level. None: the network takes no options.
   */
  options?: z.ZodType<Record<string, unknown>>;
  /** Kinds of post this network takes (a DM where the platform has them). */
  kinds: readonly PostKind[];
  /**
   * Where a network's replies are not posts (Instagram's, LinkedIn's and Facebook's are comments on a post): what
   * people call one, its own text limit and hashtag limit (none: the network names none), that it takes no media, how
   * many parts a thread may have (the post and its first comment), and that it takes one only as a thread's part
   * (`threadOnly`: no reply to a post named by id or link).
   */
  replies?: {
    noun: string;
    textLimit: number;
    maxHashtags?: number;
    media: false;
    maxThreadParts: number;
    threadOnly: boolean;
  };
  connect: ConnectMeta;
  /** The sandbox dialect's path under this app (`/api/sandbox/<name>`). */
  sandboxPath: `/api/sandbox/${string}`;
  /** Where the sandbox dialect shows one post (the timeline's "View post" link). */
  sandboxPostPath: (postId: string, platformUserId: string) => string;
};

/**
 * What one network takes as video, as data (docs/publishing.md#video): the composer checks each attached video's
 * probe (lib/media/video.ts `VideoFacts`) against every target's formats before scheduling and shows what fails
 * where. A network without `video` takes none.
 */
export type VideoLimits = {
  /** Each way the network publishes a video (a feed video, a Reel, a Story, a Short…), checked separately. */
  formats: readonly VideoFormat[];
};

export type VideoFormat = {
  /** `feed`, `reel`, `story`, `short`… (the post's video format; the first is the default). */
  id: string;
  label: string;
  /** MIME types of the container: video/mp4, video/quicktime. */
  types: readonly string[];
  /** ffprobe codec names (`h264`, `hevc`; audio `aac`). */
  videoCodecs: readonly string[];
  audioCodecs: readonly string[];
  maxBytes: number;
  minDurationMs: number;
  maxDurationMs: number;
  /** Width ÷ height as displayed (rotation applied), inclusive; e.g. 9:16 is 0.5625. */
  minAspectRatio: number;
  maxAspectRatio: number;
  maxFrameRate?: number;
  minFrameRate?: number;
  /** The longer side, in pixels, at most / at least. */
  maxLongSide?: number;
  minShortSide?: number;
};

export type ConnectField = {
  name: string;
  label: string;
  type: 'url' | 'text' | 'password';
  defaultValue?: string;
  placeholder?: string;
  help?: string;
  autoComplete?: string;
};

/**
 * How an admin connects an account: a pasted token or app password (`fields`, checked by `verify`), or
 * OAuth 2.0 authorization code with PKCE (`oauth`; `fields` then optional, e.g. X offers both).
 */
export type ConnectMeta = {
  method: 'token' | 'app-password' | 'oauth';
  fields: readonly ConnectField[];
  oauth: boolean;
};

/** What a client factory gets: the account with its base URL resolved and the outbound policy decided. */
export type ResolvedAccount = {
  baseUrl: string;
  /** A sandbox account (relative base URL, resolved against this app): its OAuth server is the sandbox's. */
  sandbox?: boolean;
  platformUserId: string;
  accessToken: string;
  credentials: AccountCredentials;
  outbound?: OutboundPolicy;
};

/**
 * How an ambiguous delivery is settled (docs/architecture.md#reconciliation):
 * - `timeline`: read the account's recent posts and count copies (quiet period, two reads before a release);
 * - `record-key`: `readBack` reads the record by the key every attempt wrote; a resend under that key can never
 *   create a second record, so one read settles it;
 * - `evidence`: `readBack` reads what the platform left (a container, a URN); `list` falls back to the timeline,
 *   and a provider that cannot list the account answers `review` instead.
 */
export type ReconcileStrategy = 'timeline' | 'record-key' | 'evidence';

export type VerifyResult =
  | {
      ok: true;
      /** `profileUrl`: the account's page as the platform named it (never derived from the URL typed). */
      identity: { platformUserId: string; handle: string; displayName: string | null; profileUrl?: string | null };
      baseUrl: string;
      credentials: AccountCredentials;
    }
  | { ok: false; message: string };

/** OAuth 2.0 authorization code with PKCE (lib/oauth). Endpoints are relative to the account's base URL unless absolute. */
export type OAuthConfig = {
  authorizeUrl: string;
  tokenUrl: string;
  scopes: readonly string[];
  /** The env variables holding this network's OAuth client (blank: OAuth connect is off for it). */
  clientIdEnv: string;
  clientSecretEnv: string;
  /** Where the real platform's API lives (the sandbox replaces it with its own path). */
  apiBaseUrl: string;
  /**
   * How the client is named in the authorize URL and the token requests (TikTok: `client_key`, its secret in the form
   * body instead of HTTP Basic). Default `client_id`, the secret in Basic (RFC 6749 §2.3.1).
   */
  clientParams?: { id: string; secretInBody: boolean };
  /** Extra parameters of the authorize URL (Google: `access_type=offline`, `prompt=consent` for a refresh token). */
  authorizeParams?: Readonly<Record<string, string>>;
  /**
   * For networks whose code exchange gives a short-lived token (Threads: one hour), the swap for the long-lived
   * one, right after the exchange and before anything is stored.
   */
  longLivedExchange?: (input: {
    account: ResolvedAccount;
    /** The OAuth client's id (Facebook's exchange names it). */
    clientId?: string;
    clientSecret?: string;
    send?: ProviderTransport;
  }) => Promise<RefreshResult>;
};

/** What `verify` may use: a client for a would-be account (base URL resolved, outbound guard applied). */
export type ConnectTools = {
  client: (account: { baseUrl: string; platformUserId?: string; credentials: AccountCredentials }) => ProviderClient;
  /** The same account as a client factory would get it (base URL resolved, outbound policy decided). */
  resolve: (account: { baseUrl: string; platformUserId?: string; credentials: AccountCredentials }) => ResolvedAccount;
  /** How calls are sent (tests route them in-process); clients from `client` already use it. */
  send?: ProviderTransport;
};

export type RefreshResult =
  | { ok: true; credentials: AccountCredentials }
  /** `rejected`: the platform refused the refresh token (revoked): only a reconnect helps. */
  | { ok: false; rejected: boolean; reason: string };

/** One network, whole: everything the app needs to connect, publish, classify, reconcile and delete. */
export type ProviderDefinition = ProviderMeta & {
  /** Default posting limit per account (RATE_LIMITS overrides it). */
  rateLimit: { max: number; windowSeconds: number };
  /** The connect form's fields as submitted (a pasted token, an app password); checked before `verify`. */
  connectSchema: z.ZodType<Record<string, string>>;
  /** The connection check before an account is stored: who the credentials belong to. */
  verify: (input: Record<string, string>, tools: ConnectTools) => Promise<VerifyResult>;
  createClient: (account: ResolvedAccount, send?: ProviderTransport) => ProviderClient;
  /** The outcome classification table (every row has a test). */
  rules: readonly Rule[];
  reconcile: ReconcileStrategy;
  /** An attempt's classification that says the post is probably already there (X "duplicate content"). */
  isDuplicateEvidence: (classification: Pick<Classification, 'rule' | 'evidence'>) => boolean;
  oauth: OAuthConfig | null;
  /** Renews expiring credentials (OAuth refresh, a Bluesky session); null when tokens do not expire. */
  refresh: ((account: ResolvedAccount, send?: ProviderTransport) => Promise<RefreshResult>) | null;
};
