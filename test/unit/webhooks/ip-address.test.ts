import { describe, expect, it } from "vitest";
import { classifyAddress, type AddressKind } from "../../../src/domain/webhooks/ip-address.js";

describe("classifyAddress: the ranges a webhook may not reach", () => {
  const cases: [string, AddressKind][] = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.10", "private"],
    ["100.64.0.1", "private"],
    ["fc00::1", "private"],
    ["fd12:3456:789a::1", "private"],
    ["fec0::1", "private"],
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.0.1", "reserved"],
    ["192.0.0.170", "reserved"],
    ["198.18.0.1", "reserved"],
    ["198.19.255.254", "reserved"],
    ["64:ff9b:1::a00:1", "private"],
    ["64:ff9b:1:ffff::808:808", "private"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"],
    ["2001::1", "reserved"],
  ];
  it.each(cases)("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["[::ffff:7f00:1]", "loopback"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["::ffff:0.0.0.0", "unspecified"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::10.0.0.1", "private"],
    ["2002:c0a8:0101::1", "private"],
    ["::ffff:8.8.8.8", "public"],
    // SIIT IPv4-translated addresses (::ffff:0:0/96, RFC 2765), in every spelling.
    ["::ffff:0:a9fe:a9fe", "link-local"],
    ["::ffff:0:169.254.169.254", "link-local"],
    ["::ffff:0:127.0.0.1", "loopback"],
    ["0:0:0:0:ffff:0:7f00:1", "loopback"],
    ["[::ffff:0:10.0.0.1]", "private"],
    ["::ffff:0:8.8.8.8", "public"],
    ["::a9fe:a9fe", "link-local"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::8.8.8.8", "public"],
    ["2002:7f00:1::", "loopback"],
    ["2002:a9fe:a9fe::1", "link-local"],
    ["2002:808:808::1", "public"],
  ] as [string, AddressKind][])("an IPv6 form carrying an IPv4 address is classified by it: %s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    // Other layouts in ::/8, which the IETF reserves: none is a public service's address.
    "::ffff:ffff:a9fe:a9fe",
    "::1:0:a9fe:a9fe",
    "64:ff9b:2::1",
    "64:ff9b::1:a9fe:a9fe",
    "ff:ffff::1",
    // Teredo tunnels to an IPv4 address its client chooses, whatever the one written in it.
    "2001:0:a9fe:a9fe::1",
    "2001:0:808:808:0:0:0:1",
  ])("%s is never public", (address) => {
    expect(classifyAddress(address)).not.toBe("public");
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.0", "192.169.0.1", "100.128.0.1", "169.255.0.1", "192.0.1.1", "198.17.255.255", "198.20.0.1", "2001:1::1", "2606:4700:4700::1111", "2001:db8::1", "fe00::1"])(
    "%s is public",
    (address) => {
      expect(classifyAddress(address)).toBe("public");
    },
  );

  it.each(["example.com", "", "1.2.3", "256.1.1.1", "1.2.3.4.5", "::1::2", "12345::1", "1:2:3:4:5:6:7:8:9", "::ffff:300.1.1.1", "gggg::1"])(
    "%s is not an address",
    (text) => {
      expect(classifyAddress(text)).toBe("invalid");
    },
  );
});
