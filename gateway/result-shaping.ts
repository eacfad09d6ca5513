import internals, { type FieldSelection, type NamedType, type Operation, type SelectionSet, type Type } from "@apollo/federation-internals";
import resultShaping from "@apollo/gateway/dist/resultShaping.js";
import type { GraphQLError } from "graphql";
import { JsonText } from "../lib/json-text.ts";

type Shape = typeof resultShaping.computeResponse;
type Shaping = { schema: ReturnType<Operation["schema"]>; variables: Record<string, unknown>; errors: GraphQLError[]; introspectionHandling: (selection: FieldSelection) => unknown };
type Output = Record<string, unknown>;
/** An applied @skip or @include */
type Condition = { arguments(): { if?: unknown } };

// read once: each read through the package's index is a call to one of its re-export getters,
// which were a quarter of the shaping's time
// its checks as `if (!ok) assert(false, message)`: Apollo's `assert(ok, () => message)` made a
// closure (and a context for it) per check and value, most of the shaping's garbage
const assert: (condition: unknown, message: string) => asserts condition = internals.assert;
const { ERRORS, isCompositeType, isCustomScalarType, isLeafType, isListType, isNonNullType, isObjectType, isSubtype, isValidLeafValue, typenameFieldName, Variable } = internals;

/**
 * What the shaping needs of one selection, read from the operation's model once: the model's
 * accessors (responseName(), appliedDirectivesOf(), definition.type...) ran on every request.
 */
interface Step {
  selection: FieldSelection;
  skip: Condition | undefined;
  include: Condition | undefined;
  field: boolean;
  responseName: string;
  fieldName: string;
  type: Type;
  introspection: boolean;
  selectionSet: SelectionSet | undefined;
  typeCondition: NamedType | undefined;
  /** a scalar or enum field, nullable or not (not a list): its named type, which a value is checked against */
  leaf: NamedType | undefined;
  /** `leaf` is a custom scalar, which takes any value */
  anyValue: boolean;
}

const steps = new WeakMap<SelectionSet, Step[]>();

function stepsOf(selectionSet: SelectionSet, schema: Shaping["schema"]): Step[] {
  const known = steps.get(selectionSet);
  if (known) return known;
  const found: Step[] = selectionSet.selections().map((selection) => {
    const skip = selection.element.appliedDirectivesOf(schema.skipDirective())[0] as unknown as Condition | undefined;
    const include = selection.element.appliedDirectivesOf(schema.includeDirective())[0] as unknown as Condition | undefined;
    if (selection.kind === "FieldSelection") {
      const field = selection.element;
      const type = field.definition.type!;
      const named = isNonNullType(type) ? type.ofType : type;
      const leaf = !selection.selectionSet && isLeafType(named) ? named : undefined;
      return { selection, skip, include, field: true, responseName: field.responseName(), fieldName: field.name, type, introspection: field.definition.isSchemaIntrospectionField(), selectionSet: selection.selectionSet, typeCondition: undefined, leaf, anyValue: !!leaf && isCustomScalarType(leaf) };
    }
    return { selection: selection as never, skip, include, field: false, responseName: "", fieldName: "", type: undefined as never, introspection: false, selectionSet: selection.selectionSet, typeCondition: selection.element.typeCondition, leaf: undefined, anyValue: false };
  });
  steps.set(selectionSet, found);
  return found;
}

/**
 * The answer's objects. Apollo's shaping makes them with Object.create(null), which V8 keeps as
 * hash tables (dictionary mode): slower to fill and read, and JSON.stringify takes its slow path
 * for each (a third more time for the answer). These are ordinary objects whose prototype has no
 * prototype: still no inherited property (an alias `__proto__` or `toJSON` is a field like any
 * other), and the same JSON.
 */
const Shaped = function Shaped() {} as unknown as new () => Output;
Shaped.prototype = Object.create(null);

let installed = false;

/**
 * Apollo Gateway's `computeResponse` (resultShaping.js: it copies the subgraphs' merged answer
 * into the operation's shape, checking each value against the schema) as the package writes it,
 * with what it recomputed per field on every request read once per selection set, and ordinary
 * objects for the answer (see `Shaped`): on the three-subgraph query the shaping was a tenth of
 * the gateway's CPU. Same answers and errors, in the same order. executeQueryPlan reads the
 * function through the module's exports on each call, so replacing the export is enough, as
 * operation-cache.ts does; @apollo/gateway is pinned.
 */
export function shapeResultsFaster(): void {
  if (installed) return;
  installed = true;
  resultShaping.computeResponse = computeResponse;
}

/**
 * Whether the installed shaping is this one, which takes JSON text in the subgraphs' answers
 * (lib/json-text.ts): the plan's fetches offer it only then (a test puts Apollo's back).
 */
export function shapesJsonText(): boolean {
  return resultShaping.computeResponse === computeResponse;
}

/** What the package's function was, for tests comparing the two. */
export const apolloComputeResponse: Shape = resultShaping.computeResponse;

const computeResponse: Shape = ({ operation, variables, input, introspectionHandling }) => {
  if (!input) return { data: input, errors: [] };
  const schema = operation.schema();
  const parameters: Shaping = {
    schema,
    variables: { __proto__: null, ...operation.collectDefaultedVariableValues(), ...variables },
    errors: [],
    introspectionHandling,
  };
  const data = new Shaped();
  const bubbled = applySelectionSet(input, operation.selectionSet, data, parameters, [], schema.schemaDefinition.rootType(operation.rootKind)!);
  return { data: bubbled ? null : data, errors: parameters.errors };
};

function ifValue(directive: Condition, variables: Record<string, unknown>): boolean {
  const condition = directive.arguments().if;
  if (condition instanceof Variable) {
    const value = variables[condition.name];
    if (!(value !== undefined && typeof value === "boolean")) assert(false, `Unexpected value ${value} for variable ${condition} of ${directive}`);
    return value as boolean;
  }
  return condition as boolean;
}

function typeConditionApplies(schema: Shaping["schema"], typeCondition: NamedType | undefined, typename: string | undefined, parentType: NamedType): boolean {
  if (!typeCondition) return true;
  if (typename) {
    const type = schema.type(typename);
    return !!type && isSubtype(typeCondition, type);
  }
  return isSubtype(typeCondition, parentType);
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Apollo's applySelectionSet; true where it answers NULL_BUBBLE_UP. */
function applySelectionSet(input: Output, selectionSet: SelectionSet, output: Output, parameters: Shaping, path: (string | number)[], parentType: NamedType): boolean {
  for (const step of stepsOf(selectionSet, parameters.schema)) {
    if ((step.skip && ifValue(step.skip, parameters.variables)) || (step.include && !ifValue(step.include, parameters.variables))) continue;
    if (step.field) {
      const responseName = step.responseName;
      let outputValue = output[responseName];
      if (step.introspection) {
        if (outputValue === undefined) output[responseName] = parameters.introspectionHandling(step.selection);
        continue;
      }
      let inputValue: unknown = (hasOwn.call(input, responseName) ? input[responseName] : undefined) ?? null;
      if (step.fieldName === typenameFieldName) {
        if (outputValue === undefined) {
          if (inputValue === null && responseName !== typenameFieldName) inputValue = input[typenameFieldName] ?? null;
          const type = inputValue !== null && typeof inputValue === "string" ? (parameters.schema.type(inputValue) ?? parentType) : parentType;
          if (!isObjectType(type)) return true;
          output[responseName] = type.name;
        }
        continue;
      }
      // a leaf met for the first time with a valid value is copied as updateOutputValue would
      // (through its non-null wrapper to the leaf's check); a null, an invalid value (both errors
      // where non-null) or a key met again take its path, as everything else does
      if (step.leaf && outputValue === undefined && inputValue !== null && (step.anyValue || isValidLeafValue(parameters.schema, inputValue, step.leaf as never))) {
        output[responseName] = inputValue;
        continue;
      }
      if (inputValue instanceof JsonText) {
        // a list of objects with exactly the leaves selected here, in order, is the answer as it is
        if (outputValue === undefined && answersText(step, inputValue, parameters)) {
          output[responseName] = inputValue;
          continue;
        }
        inputValue = JSON.parse(inputValue.text) as unknown;
      }
      // the same key selected again (through a fragment) where a text answered it: its objects, to merge into
      if (outputValue instanceof JsonText) outputValue = output[responseName] = JSON.parse(outputValue.text) as unknown;
      path.push(responseName);
      const { updated, isInvalid } = updateOutputValue(outputValue, step.type, inputValue, step.selectionSet, path, parameters, parentType);
      output[responseName] = updated;
      path.pop();
      if (isInvalid) return true;
    } else {
      const typename = input[typenameFieldName];
      if (!(!typename || typeof typename === "string")) assert(false, `Got unexpected value for __typename: ${typename}`);
      if (typeConditionApplies(parameters.schema, step.typeCondition, typename as string | undefined, parentType)) {
        if (applySelectionSet(input, step.selectionSet!, output, parameters, path, step.typeCondition ?? parentType)) return true;
      }
    }
  }
  return false;
}

/**
 * Whether `text` answers `step` as the shaping would copy it: a list of objects each with
 * exactly `text.keys`, and the step's selection those leaves in that order, each plainly (no
 * alias, condition or fragment); a non-null leaf holds its value in the stored text, and the
 * subgraph's enums are the API's (PlanContext.textServices), so no value is checked here.
 */
function answersText(step: Step, text: JsonText, parameters: Shaping): boolean {
  const keys = text.keys;
  if (!keys || !step.selectionSet || !isListType(isNonNullType(step.type) ? step.type.ofType : step.type)) return false;
  const inner = stepsOf(step.selectionSet, parameters.schema);
  if (inner.length !== keys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const leaf = inner[i]!;
    if (!leaf.field || !leaf.leaf || leaf.skip || leaf.include || leaf.introspection || leaf.responseName !== keys[i] || leaf.fieldName !== keys[i]) return false;
  }
  return true;
}

function pathLastElementDescription(path: (string | number)[], currentType: Type, parentType: NamedType): string {
  const element = path[path.length - 1];
  assert(element !== undefined, "Should not have been called on an empty path");
  return typeof element === "string" ? `field ${parentType}.${element}` : `array element of type ${currentType} at index ${element}`;
}

interface Updated {
  updated: unknown;
  isInvalid?: boolean;
  hasErrors?: boolean;
}

/** Apollo's updateOutputValue. */
function updateOutputValue(outputValue: unknown, type: Type, inputValue: unknown, selectionSet: SelectionSet | undefined, path: (string | number)[], parameters: Shaping, parentType: NamedType): Updated {
  assert(inputValue !== undefined, "Should not pass undefined for `inputValue` to this method");
  if (outputValue === null || (outputValue !== undefined && !selectionSet)) return { updated: outputValue };
  if (isNonNullType(type)) {
    const { updated, hasErrors } = updateOutputValue(outputValue, type.ofType, inputValue, selectionSet, path, parameters, parentType);
    if (updated === null) {
      if (!hasErrors) {
        parameters.errors.push(ERRORS.INVALID_GRAPHQL.err(`Cannot return null for non-nullable ${pathLastElementDescription(path, type.ofType, parentType)}.`, { path: Array.from(path) }));
      }
      return { updated, isInvalid: true, hasErrors: true };
    }
    return { updated };
  }
  if (inputValue === null) return { updated: null };
  if (isListType(type)) {
    if (!Array.isArray(inputValue)) assert(false, `Invalid non-list value ${inputValue} returned by subgraph for list type ${type}`);
    if (!(outputValue === undefined || Array.isArray(outputValue))) assert(false, `Invalid non-list value ${outputValue} returned by subgraph for list type ${type}`);
    const inputList = inputValue as unknown[];
    const outputList = outputValue === undefined ? new Array(inputList.length).fill(undefined) : (outputValue as unknown[]);
    if (inputList.length !== outputList.length) assert(false, `[${inputList}].length (${inputList.length}) !== [${outputList}].length (${outputList.length})`);
    let shouldNullify = false;
    let hasErrors = false;
    const updated: unknown[] = [];
    for (let index = 0; index < outputList.length; index++) {
      path.push(index);
      const result = updateOutputValue(outputList[index], type.ofType, inputList[index], selectionSet, path, parameters, parentType);
      path.pop();
      shouldNullify ||= !!result.isInvalid;
      hasErrors ||= !!result.hasErrors;
      updated.push(result.updated);
    }
    return { updated: shouldNullify ? null : updated, hasErrors };
  }
  if (isCompositeType(type)) {
    if (!selectionSet) assert(false, `Invalid empty selection set for composite type ${type}`);
    if (typeof inputValue !== "object") assert(false, `Invalid non-object value ${inputValue} returned by subgraph for composite type ${type}`);
    if (!(outputValue === undefined || typeof outputValue === "object")) assert(false, `Invalid non-object value ${inputValue} returned by subgraph for composite type ${type}`);
    const inputTypename = (inputValue as Output)[typenameFieldName];
    if (!(inputTypename === undefined || typeof inputTypename === "string")) assert(false, `Invalid non-string value ${inputTypename} for __typename at ${path}`);
    let objectType: NamedType = type;
    if (inputTypename) {
      const typenameType = parameters.schema.type(inputTypename as string);
      if (!typenameType || !isCompositeType(typenameType)) {
        parameters.errors.push(ERRORS.INVALID_GRAPHQL.err(`Invalid __typename found for object at ${pathLastElementDescription(path, type, parentType)}.`, { path: Array.from(path) }));
        return { updated: null, hasErrors: true };
      }
      objectType = typenameType;
    }
    const outputObject = outputValue === undefined ? new Shaped() : (outputValue as Output);
    const hasErrors = applySelectionSet(inputValue as Output, selectionSet!, outputObject, parameters, path, objectType);
    return { updated: hasErrors ? null : outputObject, hasErrors };
  }
  if (outputValue !== undefined) assert(false, `Excepted output to be undefined but got ${type} for type ${type}`);
  const isValidValue = isValidLeafValue(parameters.schema, inputValue, type as globalThis.Parameters<typeof isValidLeafValue>[2]);
  if (!isValidValue) {
    parameters.errors.push(ERRORS.INVALID_GRAPHQL.err(`Invalid value found for ${pathLastElementDescription(path, type, parentType)}.`, { path: Array.from(path) }));
  }
  return { updated: isValidValue ? inputValue : null, hasErrors: !isValidValue };
}
