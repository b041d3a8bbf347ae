import { addressNetwork } from '../../src/http/clientAddress';

// Limits per client address count an IPv6 client by its /64 (src/http/clientAddress.ts): every way of writing an
// address of one /64 names the same network, and an IPv4-mapped address is its IPv4 one.

describe('addressNetwork', () => {
  it('names an IPv6 address by its /64, however it is written', () => {
    const forms = ['2001:db8:1:2::1', '2001:DB8:1:2:ffff:ffff:ffff:ffff', '2001:0db8:0001:0002:0:0:0:9', '2001:db8:1:2:a:b:1.2.3.4'];
    expect(new Set(forms.map(addressNetwork))).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(addressNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressNetwork('::1')).toBe('0:0:0:0::/64');
    expect(addressNetwork('fe80::')).toBe('fe80:0:0:0::/64');
  });

  it('leaves IPv4 alone and unmaps IPv4-mapped IPv6; anything else stands as it is', () => {
    expect(addressNetwork('198.51.100.7')).toBe('198.51.100.7');
    expect(addressNetwork('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressNetwork('::ffff:c633:6407')).toBe('198.51.100.7');
    expect(addressNetwork('unknown')).toBe('unknown');
  });
});
