/**
 * What differs between Meta's Graph APIs (Threads at graph.threads.net, Instagram at graph.instagram.com, Facebook
 * Pages at graph.facebook.com): names, not logic. Threads and Instagram make a post in two steps around a media
 * container whose status is the evidence (docs/networks.md); lib/providers/meta-graph/ holds that logic once. Facebook
 * shares the Graph requests, listings, errors and tokens, not the containers (lib/providers/facebook/).
 */
export type MetaNetwork = {
  name: 'threads' | 'instagram' | 'facebook';
  /** How people call it, in reasons and errors. */
  label: string;
  version: string;
  /** The edge that makes a container (`/{user}/threads`, `/{user}/media`) and the one that publishes it. */
  createEdge: string;
  publishEdge: string;
  /** The container's status field (`status` on Threads, `status_code` on Instagram) and its error field. */
  statusField: string;
  errorField: string;
  /** The post's text field in listings (`text`, `caption`). */
  textField: string;
  /** Extra fields a listing asks for (replies on Threads). */
  listFields: string;
  /** A listed post's time and link fields where they differ from `timestamp` and `permalink` (Facebook). */
  timeField?: string;
  permalinkField?: string;
  /** The listing refuses an earlier `since` (Threads: its launch); 0 where none is documented. */
  epochSeconds: number;
  /** The long-lived token grants (`th_exchange_token`/`th_refresh_token`, `ig_exchange_token`/`ig_refresh_token`). */
  exchangeGrant: string;
  refreshGrant: string;
  /** The `/me` fields that name the account, and the one holding the id publishing uses. */
  meFields: string;
  meIdField: string;
};

export const THREADS_NETWORK: MetaNetwork = {
  name: 'threads',
  label: 'Threads',
  version: 'v1.0',
  createEdge: 'threads',
  publishEdge: 'threads_publish',
  statusField: 'status',
  errorField: 'error_message',
  textField: 'text',
  listFields: 'is_reply,replied_to',
  epochSeconds: 1_688_540_400,
  exchangeGrant: 'th_exchange_token',
  refreshGrant: 'th_refresh_token',
  meFields: 'id,username,name',
  meIdField: 'id',
};

/**
 * Instagram API with Instagram Login (developers.facebook.com/docs/instagram-platform): the professional account's
 * id is `user_id` on /me (its `id` is app-scoped); the container's `status` holds an error subcode, its
 * `status_code` the state.
 */
export const INSTAGRAM_NETWORK: MetaNetwork = {
  name: 'instagram',
  label: 'Instagram',
  version: 'v23.0',
  createEdge: 'media',
  publishEdge: 'media_publish',
  statusField: 'status_code',
  errorField: 'status',
  textField: 'caption',
  listFields: 'media_type,media_product_type',
  epochSeconds: 0,
  exchangeGrant: 'ig_exchange_token',
  refreshGrant: 'ig_refresh_token',
  meFields: 'user_id,username,name',
  meIdField: 'user_id',
};

/**
 * Facebook Pages (developers.facebook.com/docs/pages-api/posts): a page's posts are `message`, `created_time` and
 * `permalink_url`; `fb_exchange_token` swaps a user token for a long-lived one, and page tokens derived from it do not
 * expire, so there is no refresh grant (`refreshGrant` is unused).
 */
export const FACEBOOK_NETWORK: MetaNetwork = {
  name: 'facebook',
  label: 'Facebook',
  version: 'v23.0',
  createEdge: 'feed',
  publishEdge: 'feed',
  statusField: 'status',
  errorField: 'status',
  textField: 'message',
  listFields: 'attachments',
  timeField: 'created_time',
  permalinkField: 'permalink_url',
  epochSeconds: 0,
  exchangeGrant: 'fb_exchange_token',
  refreshGrant: '',
  meFields: 'id,name',
  meIdField: 'id',
};
