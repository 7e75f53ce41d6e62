/**
 * Classifies an IP address for the webhook URL policy. Pure: the addresses come from the URL
 * itself or from a DNS answer obtained by an adapter.
 */
export type AddressKind = "public" | "loopback" | "private" | "link-local" | "unspecified" | "multicast" | "reserved" | "invalid";

type Range4 = [base: number, prefix: number, kind: AddressKind];

const ipv4Ranges: Range4[] = [
  [ipv4(0, 0, 0, 0), 8, "unspecified"], // "this network"; 0.0.0.0 reaches the local host
  [ipv4(127, 0, 0, 0), 8, "loopback"],
  [ipv4(10, 0, 0, 0), 8, "private"],
  [ipv4(172, 16, 0, 0), 12, "private"],
  [ipv4(192, 168, 0, 0), 16, "private"],
  [ipv4(100, 64, 0, 0), 10, "private"], // carrier-grade NAT, never a public service
  [ipv4(169, 254, 0, 0), 16, "link-local"], // includes cloud metadata services (169.254.169.254)
  [ipv4(192, 0, 0, 0), 24, "reserved"], // IETF protocol assignments (DS-Lite, NAT64 discovery, ...)
  [ipv4(198, 18, 0, 0), 15, "reserved"], // benchmarking networks, often internal test beds
  [ipv4(224, 0, 0, 0), 4, "multicast"],
  [ipv4(240, 0, 0, 0), 4, "reserved"], // includes the broadcast 255.255.255.255
];

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function parseIpv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  const [a, b, c, d] = parts.map(Number) as [number, number, number, number];
  return ipv4(a, b, c, d);
}

function classifyIpv4(value: number): AddressKind {
  for (const [base, prefix, kind] of ipv4Ranges) {
    const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === base) return kind;
  }
  return "public";
}

/** Eight 16-bit groups, or undefined when the text is not an IPv6 address. */
function parseIpv6(text: string): number[] | undefined {
  let body = text.replace(/%.*/s, ""); // a zone id (fe80::1%eth0) says nothing about the range
  const lastColon = body.lastIndexOf(":");
  if (body.includes(".")) {
    // A dotted IPv4 tail (::ffff:1.2.3.4) is two groups written another way.
    const v4 = parseIpv4(body.slice(lastColon + 1));
    if (v4 === undefined || lastColon < 0) return undefined;
    body = `${body.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (![...head, ...rest].every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  const explicit = head.length + rest.length;
  if (halves.length === 1 ? explicit !== 8 : explicit > 7) return undefined;
  const fill = new Array<number>(8 - explicit).fill(0);
  return [...head.map((g) => parseInt(g, 16)), ...(halves.length === 2 ? fill : []), ...rest.map((g) => parseInt(g, 16))];
}

const embeddedIpv4 = (hi: number, lo: number) => ((hi << 16) | lo) >>> 0;

function classifyIpv6(g: number[]): AddressKind {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return "unspecified";
  if (zeros(0, 7) && g[7] === 1) return "loopback";
  // Forms that carry an IPv4 address: mapped (::ffff:a.b.c.d), SIIT translated
  // (::ffff:0:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4
  // (2002:aabb:ccdd::). A stack or translator may reach that IPv4 address, so it decides.
  if (zeros(0, 5) && g[5] === 0xffff) return classifyIpv4(embeddedIpv4(g[6]!, g[7]!));
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return classifyIpv4(embeddedIpv4(g[6]!, g[7]!));
  if (zeros(0, 6)) return classifyIpv4(embeddedIpv4(g[6]!, g[7]!));
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return classifyIpv4(embeddedIpv4(g[6]!, g[7]!));
  if (g[0] === 0x2002) return classifyIpv4(embeddedIpv4(g[1]!, g[2]!));
  // NAT64 local-use prefixes (64:ff9b:1::/48) translate into the operator's own networks, and a
  // Teredo address (2001::/32) tunnels to an IPv4 address of its own choosing: neither is public.
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "private";
  if (g[0] === 0x2001 && g[1] === 0) return "reserved";
  const first = g[0]!;
  // The rest of ::/8 is reserved by the IETF: no public service has an address there, and
  // layouts not listed above (::ffff:ffff:a.b.c.d, other 64:ff9b:: prefixes) may still embed one.
  if (first < 0x0100) return "reserved";
  if ((first & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return "link-local"; // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return "private"; // deprecated site-local fec0::/10
  if ((first & 0xff00) === 0xff00) return "multicast";
  return "public";
}

/** Accepts the forms a URL host or a resolver gives: `1.2.3.4`, `::1`, `[::1]`. */
export function classifyAddress(address: string): AddressKind {
  const text = address.trim().replace(/^\[(.*)\]$/, "$1");
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return classifyIpv4(v4);
  if (!text.includes(":")) return "invalid";
  const v6 = parseIpv6(text);
  return v6 ? classifyIpv6(v6) : "invalid";
}
