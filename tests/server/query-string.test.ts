import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../server/lib/query-string';

describe('parseQueryString (qs-style brackets)', () => {
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
});
