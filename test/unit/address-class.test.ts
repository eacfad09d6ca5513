import { describe, expect, it } from "vitest";
import { addressClass } from "../../lib/net/address-class.ts";

describe("addressClass: which addresses a jwks_uri may reach", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["0.0.0.0", "unspecified"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared"],
    ["100.127.255.255", "shared"],
    ["100.128.0.1", "public"],
    ["169.254.169.254", "link-local"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
  ])("IPv4 %s is %s", (address, kind) => {
    expect(addressClass(address)).toBe(kind);
  });

  it.each([
    ["2606:4700:4700::1111", "public"],
    ["2001:4860:4860::8888", "public"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["2001::1", "reserved"], // Teredo
    ["::2", "reserved"], // IPv4-compatible, deprecated
    ["100::1", "reserved"], // discard
    ["fec0::1", "private"], // site-local, deprecated
  ])("IPv6 %s is %s", (address, kind) => {
    expect(addressClass(address)).toBe(kind);
  });

  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:100.64.0.1", "shared"],
    ["::ffff:0:192.168.0.1", "private"], // IPv4-translated
    ["64:ff9b::7f00:1", "loopback"], // NAT64 of 127.0.0.1
    ["64:ff9b::a9fe:a9fe", "link-local"], // NAT64 of 169.254.169.254
    ["64:ff9b:1::1", "private"],
    ["2002:7f00:1::1", "loopback"], // 6to4 of 127.0.0.1
    ["2002:a00:1::1", "private"], // 6to4 of 10.0.0.1
    ["::ffff:8.8.8.8", "public"],
    ["64:ff9b::808:808", "public"],
  ])("an IPv4 address inside IPv6 %s is classified as the IPv4 address it reaches: %s", (address, kind) => {
    expect(addressClass(address)).toBe(kind);
  });

  it("anything that is not an address is invalid", () => {
    for (const text of ["localhost", "127.1", "0x7f000001", "", "1.2.3.4.5", "::g"]) expect(addressClass(text)).toBe("invalid");
  });
});
