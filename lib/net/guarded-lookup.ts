import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { addressClass } from "./address-class.ts";
import { allowedAddress } from "./public-url.ts";

/** How a name resolves: node:dns `lookup` with `{all: true}` (tests give a resolver of their own). */
export type Resolve = (hostname: string, family: number) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (hostname, family) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, family }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http(s) that resolves once, refuses the connection unless every address
 * is allowed (lib/net/public-url.ts), and hands the socket exactly those addresses: the connection
 * goes to what was checked, so a DNS answer cannot change between check and connect (rebinding).
 * `refusal` makes the error a refused name fails the request with.
 */
export function guardedLookup(protocol: string, allowLoopbackHttp: boolean, resolve: Resolve, refusal: (message: string) => Error) {
  return (hostname: string, options: { family?: number; all?: boolean }, callback: LookupCallback) => {
    resolve(hostname, options.family ?? 0).then(
      (addresses) => {
        const refused = addresses.find((a) => !allowedAddress(addressClass(a.address), protocol, allowLoopbackHttp));
        if (addresses.length === 0 || refused) return callback(refusal(`${hostname} resolves to ${refused ? `a non-public address (${addressClass(refused.address)})` : "no address"}`), []);
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
