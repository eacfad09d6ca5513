import { Arg, Ctx, Field, ID, InputType, Mutation, Query, Resolver } from "type-graphql";
import { requireDashboard } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { IdentityServices } from "../services.ts";
import { Organisation } from "../types/organisation.ts";
import { createOrganisation, getOrganisation, updateOrganisation } from "./organisations.ts";

@InputType()
class CreateOrganisationInput {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  contact_email?: string | null;
}

@InputType()
class UpdateOrganisationInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  contact_email?: string | null;
}

@Resolver(() => Organisation)
export class OrganisationResolver {
  constructor(private readonly services: IdentityServices) {}

  @Query(() => Organisation, { description: "An organisation the dashboard user is a member of (others answer 404)." })
  organisation(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return getOrganisation(this.services.db, requireDashboard(ctx.principal), id);
  }

  @Mutation(() => Organisation, { description: "Creates an organisation; the dashboard user becomes its owner." })
  create_organisation(@Arg("input", () => CreateOrganisationInput) input: CreateOrganisationInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    return createOrganisation(this.services.db, requireDashboard(ctx.principal), input);
  }

  @Mutation(() => Organisation)
  update_organisation(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => UpdateOrganisationInput) input: UpdateOrganisationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return updateOrganisation(this.services.db, requireDashboard(ctx.principal), id, input);
  }
}
