import type { TSchema } from "@sinclair/typebox";
import { Asset, Budget, Card, Insight, StatusChange, Transaction, User, Wallet } from "./resources.generated.ts";
import { HTTPValidationError, Link, ProblemDetail, ValidationItem } from "./schemas.ts";

/** Components every document carries, referenced by `$ref: "#/components/schemas/<id>"`: shared parts, and resources, those generated from their GraphQL types among them. */
export const COMPONENTS: TSchema[] = [Link, ValidationItem, ProblemDetail, HTTPValidationError, Wallet, StatusChange, User, Transaction, Asset, Budget, Insight, Card];
