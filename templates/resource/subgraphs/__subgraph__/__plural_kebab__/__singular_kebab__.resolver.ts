import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { newId } from "../../../lib/ids.ts";
import type { __Subgraph__Db } from "../db.ts";
import type { __Singular__ as __Singular__Row } from "../generated/prisma/client.ts";
import type { __Subgraph__Services } from "../services.ts";
import { __Singular__, Create__Singular__Input, Update__Singular__Input } from "../types/__singular_kebab__.ts";

@Resolver(() => __Singular__)
export class __Singular__Resolver {
  constructor(private readonly services: __Subgraph__Services) {}

  @Query(() => [__Singular__], { description: "The user's __plural_words__, oldest first." })
  __plural_snake__(@Ctx() ctx: RequestContext): Promise<__Singular__[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return list__Plural__(this.services.db, { user_id });
  }

  @Query(() => __Singular__, { description: "One __singular_words__ of the user." })
  __singular_snake__(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<__Singular__> {
    const { user_id } = requireUser(ctx.principal, "read");
    return get__Singular__(this.services.db, { user_id, id });
  }

  @Mutation(() => __Singular__)
  create___singular_snake__(@Arg("input", () => Create__Singular__Input) input: Create__Singular__Input, @Ctx() ctx: RequestContext): Promise<__Singular__> {
    const { user_id } = requireUser(ctx.principal, "write");
    return create__Singular__(this.services.db, { user_id, ...input });
  }

  @Mutation(() => __Singular__)
  update___singular_snake__(@Arg("id", () => ID) id: string, @Arg("input", () => Update__Singular__Input) input: Update__Singular__Input, @Ctx() ctx: RequestContext): Promise<__Singular__> {
    const { user_id } = requireUser(ctx.principal, "write");
    return update__Singular__(this.services.db, { user_id, id, ...input });
  }

  @Mutation(() => ID, { description: "Deletes the __singular_words__; answers its id." })
  delete___singular_snake__(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<string> {
    const { user_id } = requireUser(ctx.principal, "write");
    return delete__Singular__(this.services.db, { user_id, id });
  }
}

// The use cases, one exported function each, beside the resolver while they stay plain CRUD; a use
// case that grows rules of its own, or that another module calls, moves to a file named after it.

const NAME_MAX_LENGTH = 100;
const AMOUNT = /^(\d{1,30})(?:\.(\d{1,2}))?$/;

function checkName(value: string): string {
  const name = typeof value === "string" ? value.trim() : "";
  if (name.length === 0 || name.length > NAME_MAX_LENGTH)
    throw validationError(["name"], `Input should have 1 to ${NAME_MAX_LENGTH} characters`, value, "string_length", { min_length: 1, max_length: NAME_MAX_LENGTH });
  return name;
}

/** A positive decimal string with at most 2 decimals, kept as a string (money is never a float). */
function checkAmount(value: string): string {
  if (typeof value !== "string" || !AMOUNT.test(value) || /^[0.]*$/.test(value))
    throw validationError(["target_amount"], "Input should be a positive decimal string with at most 2 decimals, such as \"1500.00\"", value, "decimal_parsing");
  return value;
}

/** The row is the GraphQL type (its user_id unanswered) but for money, a decimal string in plain notation. */
function view(row: __Singular__Row): __Singular__ {
  return { ...row, target_amount: row.target_amount.toFixed() };
}

/** The user's row, or __CODE__-404-001: other users' __plural_words__ do not exist. */
async function findOwn(db: Pick<__Subgraph__Db, "__singular__">, userId: string, id: string): Promise<__Singular__Row> {
  const row = await db.__singular__.findFirst({ where: { id, user_id: userId } });
  if (!row) throw appError("__CODE__-404-001", `__Singular_Title__ ${id} was not found for this user.`);
  return row;
}

/** Every __singular_words__ of the user, oldest first. */
export async function list__Plural__(db: __Subgraph__Db, options: { user_id: string }): Promise<__Singular__[]> {
  const rows = await db.__singular__.findMany({ where: { user_id: options.user_id }, orderBy: [{ created_at: "asc" }, { id: "asc" }] });
  return rows.map(view);
}

/** One __singular_words__ of the user, or __CODE__-404-001. */
export async function get__Singular__(db: __Subgraph__Db, options: { user_id: string; id: string }): Promise<__Singular__> {
  return view(await findOwn(db, options.user_id, options.id));
}

export async function create__Singular__(db: __Subgraph__Db, options: Create__Singular__Input & { user_id: string }): Promise<__Singular__> {
  const now = new Date();
  const row = await db.__singular__.create({
    data: { ...options, id: newId("__prefix__", now.getTime()), name: checkName(options.name), target_amount: checkAmount(options.target_amount), created_at: now, updated_at: now },
  });
  return view(row);
}

/** Changes the fields given (absent: unchanged; a null target_date removes it), or __CODE__-404-001. */
export async function update__Singular__(db: __Subgraph__Db, options: Update__Singular__Input & { user_id: string; id: string }): Promise<__Singular__> {
  const data = {
    ...(options.name != null && { name: checkName(options.name) }),
    ...(options.target_amount != null && { target_amount: checkAmount(options.target_amount) }),
    ...(options.target_date !== undefined && { target_date: options.target_date }),
  };
  return db.$transaction(async (tx) => {
    const row = await findOwn(tx, options.user_id, options.id);
    return view(await tx.__singular__.update({ where: { id: row.id }, data: { ...data, updated_at: new Date() } }));
  });
}

/** Deletes the user's __singular_words__ (__CODE__-404-001 if it is not theirs); answers its id. */
export async function delete__Singular__(db: __Subgraph__Db, options: { user_id: string; id: string }): Promise<string> {
  const { count } = await db.__singular__.deleteMany({ where: { id: options.id, user_id: options.user_id } });
  if (count === 0) throw appError("__CODE__-404-001", `__Singular_Title__ ${options.id} was not found for this user.`);
  return options.id;
}
