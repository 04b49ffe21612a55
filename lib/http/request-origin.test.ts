import { describe, expect, it } from 'vitest';
import { requestOrigin } from './request-origin';

const cases: { rule: string; url: string; headers: Record<string, string>; origin: string }[] = [
  { rule: 'no Host header: the URL', url: 'http://localhost:3000/x', headers: {}, origin: 'http://localhost:3000' },
  {
    rule: 'the Host the caller sent',
    url: 'http://localhost:3000/x',
    headers: { host: '127.0.0.1:3501' },
    origin: 'http://127.0.0.1:3501',
  },
  {
    rule: "a proxy's forwarded host and scheme",
    url: 'http://localhost:3000/x',
    headers: { host: 'web:3000', 'x-forwarded-host': 'semel.example.org', 'x-forwarded-proto': 'https' },
    origin: 'https://semel.example.org',
  },
  {
    rule: 'the first of a forwarded list',
    url: 'http://localhost:3000/x',
    headers: { 'x-forwarded-host': 'a.example.org, b.internal', 'x-forwarded-proto': 'https, http' },
    origin: 'https://a.example.org',
  },
  {
    rule: 'an IPv6 host',
    url: 'http://localhost:3000/x',
    headers: { host: '[::1]:3000' },
    origin: 'http://[::1]:3000',
  },
  {
    rule: 'a malformed host: the URL',
    url: 'http://localhost:3000/x',
    headers: { 'x-forwarded-host': 'evil.example/<script>' },
    origin: 'http://localhost:3000',
  },
  {
    rule: 'an unknown scheme: the URL',
    url: 'http://localhost:3000/x',
    headers: { host: 'semel.example.org', 'x-forwarded-proto': 'javascript' },
    origin: 'http://localhost:3000',
  },
];

describe('requestOrigin', () => {
  it.each(cases)('$rule', ({ url, headers, origin }) => {
    expect(requestOrigin(new Request(url, { headers }))).toBe(origin);
  });
});
