import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { __Subgraph__Services } from "../services.ts";
import { __Singular__, Create__Singular__Input, Update__Singular__Input } from "../types/__singular_kebab__.ts";
import { create__Singular__, delete__Singular__, get__Singular__, list__Plural__, update__Singular__ } from "./__plural_kebab__.ts";

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
