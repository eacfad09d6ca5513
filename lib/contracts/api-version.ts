/**
 * The interface version (`info.version` of every /openapi.json). Outgoing events carry it as
 * `api_version`, the version their `data` was rendered with, so the subgraphs storing them read it here.
 */
export const SPEC_VERSION = "0.35.2";
