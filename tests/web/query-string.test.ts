import { describe, expect, it } from 'vitest';
import { buildQueryString, withQuery } from '@/lib/query-string';

describe('query-string helper', () => {
  it('writes filters[i][j], sort[i][j] and relations[i] with readable brackets', () => {
    const qs = buildQueryString({
      filters: [
        ['updated_at', '>', '2024-01-01 10:00'],
        ['locked_at', null],
      ],
      sort: [['comment_id', 'desc']],
      relations: ['entry', 'latest_comment'],
    });
    expect(qs).toBe(
      'filters[0][0]=updated_at&filters[0][1]=%3E&filters[0][2]=2024-01-01%2010%3A00' +
        '&filters[1][0]=locked_at&filters[1][1]=' +
        '&sort[0][0]=comment_id&sort[0][1]=desc' +
        '&relations[0]=entry&relations[1]=latest_comment',
    );
  });

  it('puts plain params first, skips undefined, indexes arrays and encodes values', () => {
    expect(buildQueryString({ params: { type: 'journal', search_term: 'a&b=c', page: 2, skip: undefined, ids: ['x', 'y'] } })).toBe(
      'type=journal&search_term=a%26b%3Dc&page=2&ids[0]=x&ids[1]=y',
    );
  });

  it('adds the query to a path only when there is one', () => {
    expect(withQuery('/v1/documents', {})).toBe('/v1/documents');
    expect(withQuery('/v1/documents', { relations: ['files'] })).toBe('/v1/documents?relations[0]=files');
    expect(withQuery('/v1/x?a=1', { params: { b: true } })).toBe('/v1/x?a=1&b=true');
  });
});
