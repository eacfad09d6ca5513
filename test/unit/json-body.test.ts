import { describe, expect, it } from "vitest";
import { JsonBodyError, MAX_JSON_DEPTH, parseJson, parseJsonBody } from "../../lib/json-body.ts";

// Issue 27: one JSON parser for every listener, stricter than JSON.parse where leniency let a
// body mean two things (duplicate keys, charsets) or broke a later walk over it (depth).

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(JsonBodyError);
    return { code: (error as JsonBodyError).code, statusCode: (error as JsonBodyError).statusCode, message: (error as Error).message };
  }
  throw new Error("not refused");
};

const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

describe("parseJson", () => {
  it("reads what JSON.parse reads, numbers included", () => {
    const text = '{"a":[1,-0,0.1,1e308,1e999,12345678901234567890,"\\u00e9\\ud83d\\ude00",null,true,false,{}],"b":"[{\\"]"," c ":{"d":""}}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
    expect(Object.is((parseJson("[-0]") as number[])[0], -0)).toBe(true);
    expect(parseJson(" 7 ")).toBe(7);
  });

  it("refuses a name repeated with another value, naming it: the ledger would book the last amount while anything else reading the body may see the first", () => {
    expect(refusal(() => parseJson('{"amount":"-1","wallet_id":1,"amount":"25.5"}'))).toEqual({
      code: "FST_ERR_CTP_INVALID_JSON_BODY",
      statusCode: 400,
      message: expect.stringContaining("Duplicate key 'amount'"),
    });
    expect(refusal(() => parseJson('{"a":{"b":1,"b":{}}}')).message).toContain("'b'");
    expect(refusal(() => parseJson('[{"x":[1],"x":[2]}]')).message).toContain("'x'");
    // the same value twice means one thing
    expect(parseJson('{"a":1,"a":1}')).toEqual({ a: 1 });
  });

  it("finds a repeated name however the text is spaced or what its strings hold (the native parser reads the rest)", () => {
    expect(refusal(() => parseJson('{"a" : 1,\n "a"\t:2}')).message).toContain("'a'");
    expect(refusal(() => parseJson('{"q":"x\\":{","q":"y"}')).message).toContain("'q'");
    expect(refusal(() => parseJson('{"v":[{"k":1},{"k":2,"k":3}]}')).message).toContain("'k'");
    const text = '{ "query" : "{ me { id } }", "variables" : { "a" : [ { "b" : "c:\\"d\\":" }, 1.5e3, null ] }, "s": "\\"x\\": 1" }';
    expect(parseJson(text)).toEqual(JSON.parse(text));
    expect(parseJson('{"1":1,"0":{"x":[]},"a":true}')).toEqual({ 0: { x: [] }, 1: 1, a: true });
  });

  it(`refuses more than ${MAX_JSON_DEPTH} levels, counting objects and arrays but not brackets inside strings`, () => {
    expect(parseJson(nested(MAX_JSON_DEPTH))).toEqual(JSON.parse(nested(MAX_JSON_DEPTH)));
    expect(refusal(() => parseJson(nested(MAX_JSON_DEPTH + 1))).message).toMatch(/more than 64 levels/);
    expect(refusal(() => parseJson(`{"d":${nested(100_000)}}`)).code).toBe("FST_ERR_CTP_INVALID_JSON_BODY");
    expect(refusal(() => parseJson('{"a":'.repeat(MAX_JSON_DEPTH + 1))).message).toMatch(/levels/);
    expect(parseJson(JSON.stringify({ s: "[{".repeat(1_000) + '\\"[' }))).toEqual({ s: "[{".repeat(1_000) + '\\"[' });
    expect(parseJson(nested(2 * MAX_JSON_DEPTH), 2 * MAX_JSON_DEPTH)).toBeInstanceOf(Array);
  });

  it("refuses a byte order mark, syntax errors and the __proto__ and constructor.prototype keys Fastify refuses", () => {
    expect(refusal(() => parseJson('\ufeff{"a":1}')).message).toMatch(/byte order mark/);
    expect(refusal(() => parseJson('{"a":1,}')).code).toBe("FST_ERR_CTP_INVALID_JSON_BODY");
    expect(refusal(() => parseJson("{'a':1}")).code).toBe("FST_ERR_CTP_INVALID_JSON_BODY");
    expect(refusal(() => parseJson("")).code).toBe("FST_ERR_CTP_INVALID_JSON_BODY");
    expect(refusal(() => parseJson('{"a":"\u0001"}')).code).toBe("FST_ERR_CTP_INVALID_JSON_BODY");
    expect(refusal(() => parseJson('{"__proto__":{"x":1}}')).message).toMatch(/prototype/);
    expect(refusal(() => parseJson('{"\\u005f_proto__":{"x":1}}')).message).toMatch(/prototype/);
    expect(refusal(() => parseJson('{"a":[{"constructor":{"prototype":{"x":1}}}]}')).message).toMatch(/prototype/);
    expect(parseJson('{"constructor":"fine"}')).toEqual({ constructor: "fine" });
  });
});

describe("parseJsonBody", () => {
  const bytes = (text: string) => Buffer.from(text, "utf8");

  it("reads UTF-8 bytes declared as UTF-8 in any spelling, or with no charset", () => {
    for (const contentType of [undefined, "application/json", "application/json; charset=utf-8", "application/json;charset=UTF-8", 'application/json; charset="Utf-8"', "application/json ; CHARSET = utf-8"])
      expect(parseJsonBody(bytes('{"a":"é"}'), contentType), String(contentType)).toEqual({ a: "é" });
  });

  it("refuses any other charset as 415, whatever the bytes", () => {
    for (const contentType of ["application/json; charset=utf-16", "application/json; charset=junk", 'application/json; charset="latin1"', "application/json; charset=", "application/json; charset=utf-8; charset=utf-16"])
      expect(refusal(() => parseJsonBody(bytes('{"a":1}'), contentType)), contentType).toMatchObject({ code: "FST_ERR_CTP_INVALID_MEDIA_TYPE", statusCode: 415 });
  });

  it("refuses bytes that are not UTF-8, an empty body and a byte order mark", () => {
    expect(refusal(() => parseJsonBody(Buffer.from('{"a":"caf\xe9"}', "latin1"), "application/json")).message).toMatch(/UTF-8/);
    expect(refusal(() => parseJsonBody(Buffer.alloc(0), "application/json")).code).toBe("FST_ERR_CTP_EMPTY_JSON_BODY");
    expect(refusal(() => parseJsonBody(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes("{}")]), "application/json")).message).toMatch(/byte order mark/);
    expect(refusal(() => parseJsonBody(Buffer.from('{"a":1}', "utf16le"), "application/json")).code).toBe("FST_ERR_CTP_INVALID_JSON_BODY");
  });
});
