import type { RestResource } from "../route-kit/resource-overlay.ts";
import { ENVIRONMENT } from "./environment.ts";
import { MEMBER } from "./member.ts";

/** An organisation in REST (spec 2.5), with its members and environments; the identity host wraps it in `{ organisation }`. */
export const resource = { type: "Organisation", component: false, types: { Member: MEMBER, ...ENVIRONMENT } } satisfies RestResource;
