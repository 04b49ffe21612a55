import { deliveryStatusEnum, postKindEnum, providerEnum } from '@/db/schema';
import { IMAGE_TYPES, VIDEO_TYPES } from '@/lib/media/sniff';
import type { SerializedAccount } from '@/lib/accounts/serialize';
import type { SerializedPost } from '@/lib/posts/serialize';
import { z } from './zod';

/** The API's shared representations: each is a named component of the OpenAPI document. */
export const deliverySchema = z
  .object({
    id: z.uuid(),
    accountId: z.uuid(),
    part: z.number().int().openapi({
      description:
        'The thread part it publishes (0-based); for a post, 0 is the post and 1 its first comment (published once part 0 is sent there).',
    }),
    status: z.enum(deliveryStatusEnum.enumValues),
    externalId: z.string().nullable(),
    url: z.string().nullable(),
  })
  .openapi('Delivery', {
    description:
      'The post (or one thread part) on one target account, with its own status and outcome. A thread part is published once the part before it is sent on that account, as a reply to it.',
  });

export const mediaSchema = z
  .object({
    id: z.uuid(),
    type: z.enum([...IMAGE_TYPES, ...VIDEO_TYPES]),
    width: z.int().openapi({ description: 'As displayed (a video’s rotation applied).' }),
    height: z.int(),
    size: z.int().openapi({ description: 'Bytes of the stored file (an image’s with its metadata removed).' }),
    altText: z.string(),
    url: z.string().openapi({
      description:
        "Where to read the bytes: GET it on this server with the same API key (`/api/v1/media/{id}/content`, scope posts:read; Range requests answered with 206); another workspace's key gets a 404.",
    }),
    video: z
      .object({
        durationMs: z.int(),
        container: z.enum(['mp4', 'mov']),
        videoCodec: z.string().openapi({ description: 'ffprobe’s name: `h264` or `hevc`.' }),
        audioCodec: z.string().nullable().openapi({ description: '`aac`, or null for a video without sound.' }),
        frameRate: z.number(),
        rotation: z.int().openapi({ description: 'Degrees clockwise the player turns the stored frames.' }),
      })
      .optional()
      .openapi({ description: 'A video’s facts, read from the file at the end of its upload (`/api/v1/uploads`).' }),
  })
  .openapi('Media');

export const threadPartOutSchema = z
  .object({
    position: z.number().int().openapi({ description: "0-based; part 0 is also the post's `text`." }),
    text: z.string(),
    media: z.array(mediaSchema).openapi({ description: "This part's images in order (`parts[].mediaIds`)." }),
    deliveries: z.array(deliverySchema).openapi({ description: "This part's delivery per account: status and link." }),
  })
  .openapi('ThreadPart');

export const postSchema = z
  .object({
    id: z.uuid(),
    status: z
      .union([z.enum(deliveryStatusEnum.enumValues), z.literal('partial')])
      .openapi({ description: "The deliveries' status when they agree, else `partial`." }),
    kind: z.enum(postKindEnum.enumValues),
    text: z.string(),
    firstComment: z.string().nullable().openapi({
      description:
        "The post's first comment (kind `post`), published as part 1 on each account whose network takes one; null: none.",
    }),
    inReplyTo: z.string().nullable(),
    recipient: z.string().nullable(),
    variants: z
      .record(z.string(), z.object({ text: z.string().optional(), firstComment: z.string().optional() }))
      .openapi({
        description:
          'Per account (`{ [accountId]: { text?, firstComment? } }`): its own text where it differs from `text`, its own first comment where it differs from `firstComment`.',
      }),
    formats: z.record(z.string(), z.string()).openapi({
      description:
        "How an account publishes it where its network has several ways (`{ [accountId]: format }`: Instagram's `story`).",
    }),
    options: z.record(z.string(), z.record(z.string(), z.unknown())).openapi({
      description:
        "The choices made per account where its network asks for some (`{ [accountId]: { … } }`: TikTok's `privacy_level`, `disable_comment`, `disable_duet`, `disable_stitch`, `post_mode`).",
    }),
    scheduledAt: z.iso.datetime().openapi({
      description: 'When it publishes; for a draft, its planned time (the time it was saved when none was given).',
    }),
    createdAt: z.iso.datetime(),
    media: z.array(mediaSchema).openapi({
      description: "The post's images in order (`mediaIds`; for a thread, part 0's, as in `parts[0].media`).",
    }),
    deliveries: z.array(deliverySchema).openapi({ description: 'Every delivery (for a thread, of every part).' }),
    parts: z
      .array(threadPartOutSchema)
      .nullable()
      .openapi({ description: "A thread's parts in order, each with its deliveries; null for other kinds." }),
  })
  .openapi('Post');

// Compile-time guard: the documented Post is exactly what serializePost returns, so neither can change alone.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type PostMatchesSerializer = Same<z.output<typeof postSchema>, SerializedPost> extends true ? true : never;
const postMatchesSerializer: PostMatchesSerializer = true;
void postMatchesSerializer;

export const postPageSchema = z
  .object({
    data: z.array(postSchema),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  })
  .openapi('PostPage');

export const canceledPostSchema = postSchema
  .extend({
    canceledDeliveryIds: z
      .array(z.uuid())
      .openapi({ description: 'Deliveries this request canceled (empty on a repeat).' }),
  })
  .openapi('CanceledPost');

export const accountSchema = z
  .object({
    id: z.uuid(),
    provider: z.enum(providerEnum.enumValues),
    sandbox: z.boolean(),
    handle: z.string().openapi({
      description:
        "As the platform names it: for Mastodon `@acct@domain` with the domain from the instance's own answer (`/api/v1/instance`), never the host of the URL typed.",
    }),
    displayName: z.string().nullable(),
    url: z
      .string()
      .nullable()
      .openapi({ description: "The account's page as the platform answered it (Mastodon's `url`); null where none." }),
    status: z.enum(['connected', 'needs_reconnect', 'disconnected']).openapi({
      description: '`needs_reconnect`: the token was refused, revoked or expired, and its deliveries are held.',
    }),
  })
  .openapi('Account');

// Compile-time guard: the documented Account is exactly what serializeAccount returns.
export type AccountMatchesSerializer =
  Same<z.output<typeof accountSchema>, SerializedAccount> extends true ? true : never;
const accountMatchesSerializer: AccountMatchesSerializer = true;
void accountMatchesSerializer;

export const accountScheduleSchema = z
  .object({
    accountId: z.uuid(),
    timeZone: z.string(),
    slots: z.array(z.object({ weekday: z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']), time: z.string() })),
    nextFreeSlots: z
      .array(z.iso.datetime())
      .openapi({ description: 'The next free slots, earliest first: where `slot: "next"` puts the next posts.' }),
  })
  .openapi('AccountSchedule');

export const accountListSchema = z.object({ data: z.array(accountSchema) }).openapi('AccountList');

/** RFC 9457 problem details; operations add their own members (listed where they document them). */
export const problemSchema = z
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .openapi({ description: 'Messages per invalid field (422).' }),
  })
  .openapi('Problem');

const deliveryStateSchema = z.object({ id: z.uuid(), accountId: z.uuid(), status: z.string() });

export const notEditableProblemSchema = problemSchema
  .extend({
    reason: z.enum(['already_publishing', 'already_sent', 'not_editable']),
    deliveries: z.array(deliveryStateSchema),
  })
  .openapi('NotEditableProblem');

export const notCancelableProblemSchema = problemSchema
  .extend({ deliveries: z.array(deliveryStateSchema) })
  .openapi('NotCancelableProblem');

export const possibleDuplicateProblemSchema = problemSchema
  .extend({ matches: z.array(z.object({ postId: z.uuid(), accountId: z.uuid() })) })
  .openapi('PossibleDuplicateProblem');
