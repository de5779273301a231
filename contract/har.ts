import { z } from 'zod';

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) as a session's network record is
 * written at its end and served by GET /api/sessions/{id}/har: the fields Chrome DevTools' network
 * panel needs to import it. Cookies are always empty: a cookie's value is a credential.
 */

const NameValue = z.object({ name: z.string(), value: z.string() });

const HarTimings = z.object({
  blocked: z.number().min(-1).optional(),
  dns: z.number().min(-1).optional(),
  connect: z.number().min(-1).optional(),
  ssl: z.number().min(-1).optional(),
  send: z.number().min(0),
  wait: z.number().min(0),
  receive: z.number().min(0),
});

export const HarEntry = z.object({
  pageref: z.string().optional(),
  startedDateTime: z.iso.datetime({ offset: true }),
  time: z.number().min(0),
  request: z.object({
    method: z.string(),
    url: z.string(),
    httpVersion: z.string(),
    cookies: z.array(NameValue),
    headers: z.array(NameValue),
    queryString: z.array(NameValue),
    postData: z.object({ mimeType: z.string(), text: z.string(), comment: z.string().optional() }).optional(),
    headersSize: z.number().int(),
    bodySize: z.number().int(),
  }),
  response: z.object({
    status: z.number().int(),
    statusText: z.string(),
    httpVersion: z.string(),
    cookies: z.array(NameValue),
    headers: z.array(NameValue),
    content: z.object({
      size: z.number().int(),
      mimeType: z.string(),
      text: z.string().optional(),
      comment: z.string().optional(),
    }),
    redirectURL: z.string(),
    headersSize: z.number().int(),
    bodySize: z.number().int(),
    /** Chrome's own field for why a request failed. */
    _error: z.string().optional(),
  }),
  cache: z.object({}),
  timings: HarTimings,
  /** Chrome's own field: the resource type its panel filters by. */
  _resourceType: z.string().optional(),
});
export type HarEntry = z.infer<typeof HarEntry>;

const HarPage = z.object({
  startedDateTime: z.iso.datetime({ offset: true }),
  id: z.string(),
  title: z.string(),
  pageTimings: z.object({ onContentLoad: z.number().optional(), onLoad: z.number().optional() }),
});

export const Har = z.object({
  log: z.object({
    version: z.literal('1.2'),
    creator: z.object({ name: z.string(), version: z.string() }),
    pages: z.array(HarPage),
    entries: z.array(HarEntry),
    comment: z.string().optional(),
    /** A custom field (HAR's `_` prefix): when a live session's record was read. The file written at its end has none. */
    _snapshotAt: z.iso.datetime().optional(),
  }),
});
export type Har = z.infer<typeof Har>;
