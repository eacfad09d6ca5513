import { isIPv4, isIPv6 } from "node:net";

/**
 * What an IP address is, for deciding whether the platform may connect to it on someone else's
 * say-so (an organisation's `jwks_uri`): only `public` addresses are fair game; everything else
 * reaches the platform itself, its network or nothing routable.
 */
export type AddressClass =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "shared" // carrier-grade NAT, 100.64.0.0/10
  | "link-local" // 169.254.0.0/16 (cloud metadata), fe80::/10
  | "unique-local" // fc00::/7
  | "multicast"
  | "reserved" // documentation, benchmarking, protocol assignments, not globally routable
  | "invalid";

type Range4 = [base: number, prefix: number, kind: AddressClass];

const IPV4_RANGES: Range4[] = [
  [ipv4("0.0.0.0"), 8, "unspecified"],
  [ipv4("10.0.0.0"), 8, "private"],
  [ipv4("100.64.0.0"), 10, "shared"],
  [ipv4("127.0.0.0"), 8, "loopback"],
  [ipv4("169.254.0.0"), 16, "link-local"],
  [ipv4("172.16.0.0"), 12, "private"],
  [ipv4("192.0.0.0"), 24, "reserved"],
  [ipv4("192.0.2.0"), 24, "reserved"],
  [ipv4("192.88.99.0"), 24, "reserved"],
  [ipv4("192.168.0.0"), 16, "private"],
  [ipv4("198.18.0.0"), 15, "reserved"],
  [ipv4("198.51.100.0"), 24, "reserved"],
  [ipv4("203.0.113.0"), 24, "reserved"],
  [ipv4("224.0.0.0"), 4, "multicast"],
  [ipv4("240.0.0.0"), 4, "reserved"],
];

/** Dotted quad to an unsigned 32-bit number (the caller checked isIPv4). */
function ipv4(address: string): number {
  return address.split(".").reduce((value, part) => value * 256 + Number(part), 0);
}

function classifyIPv4(value: number): AddressClass {
  for (const [base, prefix, kind] of IPV4_RANGES) {
    const size = 2 ** (32 - prefix);
    if (value >= base && value < base + size) return kind;
  }
  return "public";
}

/** Eight 16-bit groups; `::` expanded and a trailing dotted quad folded into the last two. */
function ipv6Groups(address: string): number[] {
  let text = address.split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const value = ipv4(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function embeddedIPv4(high: number, low: number): number {
  return high * 65536 + low;
}

function classifyIPv6(g: number[]): AddressClass {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return "unspecified";
  if (zeroUpTo(7) && g[7] === 1) return "loopback";
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated): the IPv4 address is what is reached
  if (zeroUpTo(5) && g[5] === 0xffff) return classifyIPv4(embeddedIPv4(g[6]!, g[7]!));
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return classifyIPv4(embeddedIPv4(g[6]!, g[7]!));
  // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address; its local-use /48 is a private network
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyIPv4(embeddedIPv4(g[6]!, g[7]!));
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "private";
  // 6to4 (2002::/16) carries an IPv4 address in its next 32 bits
  if (g[0] === 0x2002) return classifyIPv4(embeddedIPv4(g[1]!, g[2]!));
  if (g[0]! >= 0xfc00 && g[0]! <= 0xfdff) return "unique-local";
  if (g[0]! >= 0xfe80 && g[0]! <= 0xfebf) return "link-local";
  if (g[0]! >= 0xfec0 && g[0]! <= 0xfeff) return "private"; // deprecated site-local
  if (g[0]! >= 0xff00) return "multicast";
  // 2001::/23 (Teredo, ORCHID, benchmarking …) and 2001:db8::/32 (documentation)
  if (g[0] === 0x2001 && (g[1]! < 0x200 || g[1] === 0xdb8)) return "reserved";
  // only 2000::/3 is allocated as global unicast: the rest (IPv4-compatible ::/96, discard 100::/64 …) is not routable
  if (g[0]! < 0x2000 || g[0]! > 0x3fff) return "reserved";
  return "public";
}

export function addressClass(address: string): AddressClass {
  if (isIPv4(address)) return classifyIPv4(ipv4(address));
  const bare = address.replace(/^\[|\]$/g, "");
  if (isIPv6(bare)) return classifyIPv6(ipv6Groups(bare));
  return "invalid";
}
