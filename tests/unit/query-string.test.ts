import { describe, expect, it } from 'vitest';
import { buildQueryString, parseQueryString, withQuery, type ListQuery } from '@/contract/query-string';

describe('buildQueryString (the PWA side)', () => {
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

describe('parseQueryString (the server side, qs-style brackets)', () => {
  it('nests indexed and empty brackets, keeps plain keys and decodes', () => {
    const q = parseQueryString(
      'filters%5B0%5D%5B0%5D=updated_at&filters[0][1]=%3E%3D&filters[0][2]=2026-01-01T00%3A00%3A00.000001Z&filters[1][0]=locked_at&filters[1][1]=null' +
        '&sort[0][0]=comment_id&sort[0][1]=desc&relations[]=entry&relations[]=latest_comment&checkpoint[id]=x&with_trashed=1&_method=PUT&a=1&a=2&q=a+b',
    );
    expect(q).toEqual({
      filters: [['updated_at', '>=', '2026-01-01T00:00:00.000001Z'], ['locked_at', 'null']],
      sort: [['comment_id', 'desc']],
      relations: ['entry', 'latest_comment'],
      checkpoint: { id: 'x' },
      with_trashed: '1',
      _method: 'PUT',
      a: ['1', '2'],
      q: 'a b',
    });
  });

  it('compacts sparse arrays and ignores prototype keys and absurd nesting', () => {
    expect(parseQueryString('p[3]=b&p[0]=a')).toEqual({ p: ['a', 'b'] });
    const q = parseQueryString('__proto__[x]=1&a[constructor]=2&d[1][2][3][4][5][6]=deep');
    expect(Object.keys(q)).toEqual([]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('keeps a malformed escape as it is rather than failing', () => {
    expect(parseQueryString('a=%E0%A4%A&b=%')).toEqual({ a: '%E0%A4%A', b: '%' });
  });
});

describe('round trip: what the PWA builds, the server reads back', () => {
  it('gives back a checkpoint pull (filters, sort, relations, search_term, with_trashed)', () => {
    const query = {
      filters: [
        ['updated_at', '>=', '2026-01-01T00:00:00.000001Z'],
        ['id', '>', '0b6f1f1e-1c1a-4e0e-9c55-4f1d3a7c9a10'],
        ['type', '=', 'journal'],
      ],
      sort: [
        ['updated_at', 'asc'],
        ['id', 'asc'],
      ],
      relations: ['entry', 'latest_comment.creator'],
      params: { search_term: 'football & 100% [fun]?', with_trashed: '1', per_page: '50' },
    } satisfies ListQuery;
    expect(parseQueryString(buildQueryString(query))).toEqual({
      ...query.params,
      filters: query.filters,
      sort: query.sort,
      relations: query.relations,
    });
  });

  it('keeps characters that matter to the query syntax inside values and plain keys', () => {
    const awkward = ['a&b', 'c=d', 'e+f', 'g h', '[i]', 'j%20k', 'ü ✓ 😊', '#?/'];
    const query = { filters: [awkward], params: { 'odd key+': 'x', plain: awkward } } satisfies ListQuery;
    expect(parseQueryString(buildQueryString(query))).toEqual({ 'odd key+': 'x', plain: awkward, filters: [awkward] });
  });

  it('turns numbers and booleans into strings and null into the empty string, and drops undefined', () => {
    const query: ListQuery = { filters: [['locked_at', null], ['count', '>', 3]], params: { flag: true, skip: undefined, empty: null } };
    expect(parseQueryString(buildQueryString(query))).toEqual({ flag: 'true', empty: '', filters: [['locked_at', ''], ['count', '>', '3']] });
  });

  it('gives back an empty object for an empty query', () => {
    expect(buildQueryString({})).toBe('');
    expect(parseQueryString(buildQueryString({}))).toEqual({});
  });
});
