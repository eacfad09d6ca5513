import type { TSchema } from "@sinclair/typebox";
import { RESOURCE_COMPONENTS } from "../resources/resources.generated.ts";
import { HTTPValidationError, Link, ProblemDetail, ValidationItem } from "./schemas.ts";

/** Components every document carries, referenced by `$ref: "#/components/schemas/<id>"`: shared parts, and every resource's generated from its GraphQL type. */
export const COMPONENTS: TSchema[] = [Link, ValidationItem, ProblemDetail, HTTPValidationError, ...RESOURCE_COMPONENTS];
